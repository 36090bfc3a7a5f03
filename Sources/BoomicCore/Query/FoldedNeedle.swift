/// A folded substring to look for in many values without allocating for each one.
///
/// `ls WORD` looks in seven fields of every song: folding each value (`Fold.key` allocates a new
/// string, and costs microseconds for non-ASCII text) and searching with Foundation took 760 ms at
/// 50,000 songs. Most tag text is ASCII, and for ASCII text folding is lower-casing, so an ASCII
/// needle is matched byte by byte against an ASCII value, lower-casing on the fly; any other
/// value is folded first, as before. Matching the folded UTF-8 bytes is matching the folded
/// text: UTF-8 is self-synchronising, so a byte match of whole characters is a character match.
struct FoldedNeedle: Sendable {
    private let bytes: [UInt8]
    private let isASCII: Bool

    /// - Parameter folded: the needle, already folded (the query parser folds needles).
    init(_ folded: String) {
        bytes = Array(folded.utf8)
        isASCII = bytes.allSatisfy { $0 < 0x80 }
    }

    func isFound(in value: String) -> Bool {
        if bytes.isEmpty { return true }
        if isASCII {
            var v = value
            if let found = v.withUTF8({ Self.asciiSearch(bytes, in: $0) }) { return found }
        }
        var folded = Fold.key(value)
        return folded.withUTF8 { Self.search(bytes, in: $0, lowering: false) }
    }

    /// Whether `needle` (ASCII, lower case) occurs in `hay` ignoring ASCII case; nil when `hay`
    /// holds a non-ASCII byte (then only real folding can tell).
    private static func asciiSearch(_ needle: [UInt8], in hay: UnsafeBufferPointer<UInt8>) -> Bool? {
        for b in hay where b >= 0x80 { return nil }
        return search(needle, in: hay, lowering: true)
    }

    private static func search(_ needle: [UInt8], in hay: UnsafeBufferPointer<UInt8>, lowering: Bool) -> Bool {
        let n = needle.count
        guard hay.count >= n else { return false }
        return needle.withUnsafeBufferPointer { nd in
            let first = nd[0]
            var i = 0
            while i + n <= hay.count {
                if (lowering ? lower(hay[i]) : hay[i]) == first {
                    var j = 1
                    while j < n && (lowering ? lower(hay[i + j]) : hay[i + j]) == nd[j] { j += 1 }
                    if j == n { return true }
                }
                i += 1
            }
            return false
        }
    }

    @inline(__always) private static func lower(_ b: UInt8) -> UInt8 {
        b &- 0x41 < 26 ? b | 0x20 : b
    }
}
