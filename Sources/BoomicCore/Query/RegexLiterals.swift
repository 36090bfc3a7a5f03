/// What every match of a regular expression must contain, read from the pattern's text, so that
/// a value can be ruled out by comparing bytes before the regex engine runs on it.
///
/// A query's regex runs on every distinct value of a field (50,000 titles at 50,000 songs), and
/// NSRegularExpression costs about a microsecond a call before it reads a character (the value
/// bridged to UTF-16, the range, the progress callback). Most patterns people write are plain
/// words (`title::live`) or anchored at the start (`^The `), as ripgrep and RE2 find too, which
/// is why both pull literals out of a pattern first.
///
/// The reading is deliberately shallow: any metacharacter ends it, and a pattern with `|`
/// anywhere yields nothing, so what it finds is always implied by a match. ICU compares code
/// points (no canonical equivalence without `CANON_EQ`, which a pattern cannot ask for), so
/// comparing UTF-8 bytes agrees with it exactly.
struct RegexLiterals: Sendable {
    /// The pattern is these characters and nothing else: it matches exactly the texts that
    /// contain them.
    var whole: [UInt8]?
    /// Every match starts the text with these bytes (`^` then literal characters); empty when
    /// the pattern promises nothing.
    var prefix: [UInt8] = []

    /// The characters ICU's pattern syntax gives a meaning; `#` and whitespace only under `(?x)`,
    /// which starts with `(`.
    private static let meta: Set<UInt8> = Set("\\^$.|?*+()[]{}".utf8)
    private static let quantifiers: Set<UInt8> = Set("?*+{".utf8)

    init(pattern: String) {
        let bytes = Array(pattern.utf8)
        if bytes.contains(UInt8(ascii: "|")) { return }
        if !bytes.contains(where: Self.meta.contains) {
            whole = bytes
            return
        }
        guard bytes.first == UInt8(ascii: "^") else { return }
        var end = 1
        while end < bytes.count, !Self.meta.contains(bytes[end]) { end += 1 }
        var literal = Array(bytes[1..<end])
        // A quantifier after the run applies to its last character, which may then be absent:
        // the last character, that is, the last whole UTF-8 sequence.
        if end < bytes.count, Self.quantifiers.contains(bytes[end]) {
            while let last = literal.popLast(), last & 0xC0 == 0x80 {}
        }
        prefix = literal
    }

    /// Whether `text` may match: false only when no match is possible; for a `whole` literal,
    /// exactly whether it matches.
    func admits(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { hay in
            if let whole { return Self.contains(hay, whole) }
            guard hay.count >= prefix.count else { return false }
            for i in prefix.indices where hay[i] != prefix[i] { return false }
            return true
        }
    }

    private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard hay.count >= needle.count else { return false }
        var start = 0
        let last = hay.count - needle.count
        while start <= last {
            if hay[start] == first {
                var j = 1
                while j < needle.count, hay[start + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
