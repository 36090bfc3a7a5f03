/// A folded needle to look for in many texts (query terms, taglist text rules) without folding
/// each text into a new string.
///
/// Folding costs an allocation per text, and microseconds for non-ASCII text; `ls WORD` looks in
/// seven fields of every song (760 ms at 50,000 songs when each is folded). Most tag text is
/// ASCII, and for ASCII folding is lower-casing, so an ASCII text is compared byte by byte,
/// letters lower-cased on the fly; any other text must be folded by the caller.
struct FoldedNeedle: Sendable {
    /// The needle, folded (`Fold.key`).
    let text: String
    /// Its bytes, when they are ASCII.
    private let ascii: [UInt8]?

    init(folded: String) {
        text = folded
        ascii = folded.utf8.allSatisfy { $0 < 0x80 } ? Array(folded.utf8) : nil
    }

    /// Whether the text contains the needle, folding it only when it is not plain ASCII.
    func isFound(in value: String) -> Bool {
        asciiMatch(value, whole: false) ?? Fold.key(value).contains(text)
    }

    /// Whether an ASCII text contains (or, with `whole`, is) the needle, ignoring ASCII case; nil
    /// when the text must be folded: not ASCII, or holding a CR (CR LF is one `Character`, so
    /// there bytes and characters could disagree, and the caller's folded comparison decides).
    func asciiMatch(_ text: String, whole: Bool) -> Bool? {
        var text = text
        return text.withUTF8 { hay -> Bool? in
            for b in hay where b >= 0x80 || b == 0x0D { return nil }
            // A folded needle that is not ASCII is in no ASCII text.
            guard let ascii else { return false }
            return ascii.withUnsafeBufferPointer { needle in
                if whole { return hay.count == needle.count && Self.equal(hay, from: 0, needle) }
                guard let first = needle.first else { return true }
                guard hay.count >= needle.count else { return false }
                // Only where the first byte matches is the rest compared: the loop a query runs
                // over every distinct title and path, so no call and no array in it.
                for start in 0...(hay.count - needle.count) where Self.lower(hay[start]) == first {
                    if Self.equal(hay, from: start, needle) { return true }
                }
                return false
            }
        }
    }

    @inline(__always)
    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

    @inline(__always)
    private static func equal(_ hay: UnsafeBufferPointer<UInt8>, from start: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        for j in needle.indices where lower(hay[start + j]) != needle[j] { return false }
        return true
    }
}
