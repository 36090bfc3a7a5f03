/// One way of reading a file's name (without folder or extension) as fields: beets'
/// fromfilename patterns, in its order, after one of Boomic's own for `1-03 Title`, and without
/// beets' last (the whole name as the title): a song without a title shows its file's name
/// already, and a guess would only hide the extension that tells `x.flac` from `x.mp3`.
/// Matched in any case, as beets matches them.
struct FileNamePattern: Sendable {
    /// What one name gave: each named part, nil when the pattern has no such part or it did not
    /// take part in the match.
    struct Match: Equatable {
        var disc, track: Int?
        var artist, title, tag: String?
    }

    let source: String
    /// The pattern has an artist part (and then a title part): which is which is decided over
    /// the whole folder.
    let hasArtist: Bool
    /// The pattern has beets' trailing `- tag` part, which must be the same in every name.
    let hasTag: Bool

    /// The richest first, as beets orders them (beetsplug/fromfilename.py's PATTERNS).
    static let all: [FileNamePattern] = [
        // Boomic's: disc-track before the title (`1-03 Title`, `2-11. Title`, `1-03 - Title`).
        FileNamePattern(#"^(?<disc>\d{1,2})-(?<track>\d{1,3})\.?(?:[\s_]+-?[\s_]*|[\s_]*-[\s_]*)(?<title>.+)$"#),
        FileNamePattern(#"^(?<track>\d+)\.?\s*-\s*(?<artist>.+?)\s*-\s*(?<title>.+?)(\s*-\s*(?<tag>.*))?$"#),
        FileNamePattern(#"^(?<artist>.+?)\s*-\s*(?<title>.+?)(\s*-\s*(?<tag>.*))?$"#),
        FileNamePattern(#"^(?<track>\d+)\.?[\s_-]+(?<title>.+)$"#),
        FileNamePattern(#"^(?<title>.+) by (?<artist>.+)$"#),
        FileNamePattern(#"^(track ?)?(?<track>\d+).*$"#),
    ]

    init(_ source: String) {
        self.source = source
        hasArtist = source.contains("<artist>")
        hasTag = source.contains("<tag>")
    }

    /// The pattern compiled, matching in any case; made once per folder, not kept in a static:
    /// a Regex compiles its program lazily on first use.
    func compiled() -> Regex<AnyRegexOutput>? { try? Regex(source).ignoresCase() }

    /// The fields `name` gives, or nil when the pattern (`compiled()`) does not match it whole.
    static func match(_ name: String, _ regex: Regex<AnyRegexOutput>) -> Match? {
        guard let m = try? regex.wholeMatch(in: name) else { return nil }
        func part(_ key: String) -> String? { m.output[key]?.substring.map(String.init) }
        // A number too long for an Int, or in other digits than ASCII, gives no number.
        func number(_ key: String) -> Int? { part(key).flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } }
        return Match(disc: number("disc"), track: number("track"), artist: part("artist"), title: part("title"),
                     tag: part("tag"))
    }
}
