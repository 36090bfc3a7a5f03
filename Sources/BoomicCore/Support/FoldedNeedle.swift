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
        return text.withUTF8 { asciiMatch(utf8: UnsafeRawBufferPointer($0), whole: whole) }
    }

    /// `asciiMatch` of a text's UTF-8 bytes, read where they lie (an image's value table): bytes
    /// that are not valid UTF-8 are not plain ASCII either, so they go to the folded comparison
    /// of the text they decode to, as a `String` made of them would.
    func asciiMatch(utf8 hay: UnsafeRawBufferPointer, whole: Bool) -> Bool? {
        guard Self.isPlainASCII(hay) else { return nil }
        // A folded needle that is not ASCII is in no ASCII text.
        guard let ascii else { return false }
        return ascii.withUnsafeBufferPointer { needle in
            if whole { return hay.count == needle.count && Self.equal(hay, from: 0, needle) }
            guard let first = needle.first else { return true }
            guard hay.count >= needle.count else { return false }
            return Self.firstMatch(of: first, in: hay, through: hay.count - needle.count) { Self.equal(hay, from: $0, needle) }
        }
    }

    // A query runs these over every distinct title and path (megabytes at 50,000 songs), so
    // they read eight bytes at a time: the classic SWAR tests of "Bit Twiddling Hacks".

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The zero bytes of `w`, as their high bits. Every zero byte is reported; a byte just above
    /// a zero one may be too (the borrow), so a caller uses it as a yes/no or checks each hit.
    @inline(__always)
    private static func zeroBytes(_ w: UInt64) -> UInt64 { (w &- ones) & ~w & highs }

    /// Whether every byte is ASCII and none is a CR.
    @inline(__always)
    private static func isPlainASCII(_ hay: UnsafeRawBufferPointer) -> Bool {
        guard let base = hay.baseAddress else { return true }
        var i = 0
        while i + 8 <= hay.count {
            let w = UInt64(littleEndian: (base + i).loadUnaligned(as: UInt64.self))
            // Without high bits, `zeroBytes` finds exactly the CRs; with one, the text is not ASCII anyway.
            if (w | zeroBytes(w ^ 0x0D * ones)) & highs != 0 { return false }
            i += 8
        }
        while i < hay.count {
            if hay[i] >= 0x80 || hay[i] == 0x0D { return false }
            i += 1
        }
        return true
    }

    /// Whether `matches` holds at some position up to `last` whose byte, lower-cased, is
    /// `first`; the text is plain ASCII.
    @inline(__always)
    private static func firstMatch(of first: UInt8, in hay: UnsafeRawBufferPointer, through last: Int,
                                   _ matches: (Int) -> Bool) -> Bool {
        let base = hay.baseAddress!
        let wanted = UInt64(first) &* ones
        var i = 0
        while i + 8 <= last + 1 {
            // Little-endian: the byte at `i + k` is bits 8k..8k+7.
            let w = UInt64(littleEndian: (base + i).loadUnaligned(as: UInt64.self))
            // Each byte is below 0x80, so the sums stay in their bytes: a high bit where the
            // byte is at least "A", cleared where it is past "Z"; that bit shifted is 0x20.
            let upper = (w &+ (0x80 - 0x41) &* ones) & ~(w &+ (0x80 - 0x5B) &* ones) & highs
            var hits = zeroBytes((w | upper >> 2) ^ wanted)
            while hits != 0 {
                if matches(i + hits.trailingZeroBitCount / 8) { return true }
                hits &= hits &- 1
            }
            i += 8
        }
        while i <= last {
            if lower(hay[i]) == first, matches(i) { return true }
            i += 1
        }
        return false
    }

    @inline(__always)
    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

    @inline(__always)
    private static func equal(_ hay: UnsafeRawBufferPointer, from start: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        for j in needle.indices where lower(hay[start + j]) != needle[j] { return false }
        return true
    }
}
