/// What names say about a song whose file does not: pure readers of a disc folder's name, an
/// album's disc suffix, an album folder's name and a folder's file names. `GuessGeneration`
/// decides which of their answers a song takes.
public enum NameGuess {
    /// The disc number a folder's name gives: `CD1`, `CD 2`, `Disc 2`, `Disk2`, `disc-3`,
    /// `Disc.4`, in any case, also with a title after it (`CD2 - Bonus`, `Disc 1: Live`); nil for
    /// any other name (`Discography`, `CDs`, `Disco 2`). Numbers run from 1 to 999.
    public static func discNumber(folderName name: String) -> Int? {
        guard let (number, rest) = discToken(Substring(name)) else { return nil }
        // After the number: nothing, or a title set off by a space or a mark (`CD2x` is no disc).
        guard let next = rest.first else { return number }
        return next.isLetter || next.isNumber ? nil : number
    }

    /// An album title without its disc suffix, and the disc it names: `Foo (CD1)`, `Foo [Disc 2]`,
    /// `Foo - CD 2`, `Foo, Disc 3`, `Foo Disc 1`, in any case; nil when the title has no such
    /// suffix or nothing is left before it.
    public static func albumWithoutDisc(_ album: String) -> (album: String, disc: Int)? {
        let trimmed = album[...].trimmingSpaces
        guard let last = trimmed.last else { return nil }
        if last == ")" || last == "]" {
            let open: Character = last == ")" ? "(" : "["
            guard let at = trimmed.lastIndex(of: open) else { return nil }
            let inside = trimmed[trimmed.index(after: at)..<trimmed.index(before: trimmed.endIndex)].trimmingSpaces
            guard let (number, rest) = discToken(inside), rest.isEmpty else { return nil }
            let before = trimmed[..<at].trimmingSpaces.trimmingSeparators
            return before.isEmpty ? nil : (String(before), number)
        }
        // `… CD 2`: the last word that starts a disc token, preceded by a space or a mark.
        var i = trimmed.endIndex
        while i > trimmed.startIndex {
            i = trimmed.index(before: i)
            let c = trimmed[i]
            guard c == "c" || c == "C" || c == "d" || c == "D" else { continue }
            guard i > trimmed.startIndex else { return nil }
            let previous = trimmed[trimmed.index(before: i)]
            guard previous.isWhitespace || separators.contains(previous) else { continue }
            guard let (number, rest) = discToken(trimmed[i...]), rest.isEmpty else { continue }
            let before = trimmed[..<i].trimmingSpaces.trimmingSeparators
            return before.isEmpty ? nil : (String(before), number)
        }
        return nil
    }

    /// An album folder's name as an album and a year: `Album (1999)` and `Album [1999]` give
    /// the year, anything else is the album as it is.
    public static func albumFolder(_ name: String) -> (album: String, year: Int?) {
        let trimmed = name[...].trimmingSpaces
        guard let last = trimmed.last, last == ")" || last == "]" else { return (String(trimmed), nil) }
        let open: Character = last == ")" ? "(" : "["
        guard let at = trimmed.lastIndex(of: open) else { return (String(trimmed), nil) }
        let inside = trimmed[trimmed.index(after: at)..<trimmed.index(before: trimmed.endIndex)]
        let before = trimmed[..<at].trimmingSpaces
        guard inside.count == 4, inside.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(inside), year >= 1000,
              !before.isEmpty else { return (String(trimmed), nil) }
        return (String(before), year)
    }

    /// What a file's name gives (`FileNamePattern`).
    public struct NameFields: Equatable, Sendable {
        public var disc, track: Int?
        public var artist, title: String?
        public init(disc: Int? = nil, track: Int? = nil, artist: String? = nil, title: String? = nil) {
            self.disc = disc
            self.track = track
            self.artist = artist
            self.title = title
        }
    }

    /// Reads a folder's file names (without folder or extension) as beets' fromfilename does,
    /// one pattern for the whole folder: the patterns are tried from the richest on, and a
    /// pattern is taken only when it matches every name. Of `Artist - Title`'s two parts, the
    /// one equal in every name is the artist and the other the title; when both vary the
    /// pattern gives nothing (`03 - Title` in every name) and the next is tried. Where beets goes
    /// on after a pattern that gave titles (so a folder of `311 - Amber`, `311 - Down` also
    /// gets track 311 from `NN Title`), this stops: a later pattern would read the same name a
    /// second way. A folder of one file whose name starts with a number (`03 - Title`) reads it
    /// as a track, where beets takes the number for the artist. Before beets' patterns, `1-03 Title` is disc 1, track 3; after them, beets'
    /// last (the whole name as the title) is left out (`FileNamePattern.all`).
    /// - Returns: one answer per name, in order; empty when no pattern fits them all.
    public static func fromFileNames(_ names: [String]) -> [NameFields] {
        guard !names.isEmpty else { return [] }
        var out = [NameFields](repeating: NameFields(), count: names.count)
        for pattern in FileNamePattern.all {
            guard let regex = pattern.compiled() else { continue }
            let matches = names.map { FileNamePattern.match($0, regex) }
            guard matches.allSatisfy({ $0 != nil }) else { continue }
            let found = matches.map { $0! }
            // beets: a trailing `- tag` must be the same in every name.
            if pattern.hasTag, Set(found.map { $0.tag ?? "" }).count > 1 { continue }
            var titleFromArtist = false
            var artist: String?
            if pattern.hasArtist {
                // One name is the same as itself in both parts: alone, `03 - Title` is a track
                // and a title, not an artist `03` (beets reads it as the artist).
                if found.count == 1, let artist = found[0].artist, artist.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    continue
                }
                if Set(found.map { $0.artist ?? "" }).count <= 1 {
                    artist = found[0].artist
                } else if Set(found.map { $0.title ?? "" }).count <= 1 {
                    artist = found[0].title
                    titleFromArtist = true
                } else {
                    continue // both vary: this pattern says nothing
                }
            }
            var gaveTitles = false
            for (i, m) in found.enumerated() {
                if out[i].artist == nil, let artist { out[i].artist = artist }
                let title = titleFromArtist ? m.artist : m.title
                if out[i].title == nil, let title, !title.isEmpty { out[i].title = title; gaveTitles = true }
                if out[i].track == nil, let t = m.track { out[i].track = t }
                if out[i].disc == nil, let d = m.disc { out[i].disc = d }
            }
            if gaveTitles { break }
        }
        return out
    }

    // MARK: Pieces

    static let separators: Set<Character> = ["-", "_", ".", ",", ":", "–", "—"]

    /// `cd`/`disc`/`disk`, separators, then 1–3 ASCII digits (1…999), at the start of `s`:
    /// the number and what follows it.
    static func discToken(_ s: Substring) -> (Int, Substring)? {
        let lower = s.lowercased()
        let word = ["disc", "disk", "cd"].first { lower.hasPrefix($0) }
        guard let word else { return nil }
        var i = s.index(s.startIndex, offsetBy: word.count)
        while i < s.endIndex, s[i] == " " || s[i] == "-" || s[i] == "_" || s[i] == "." { i = s.index(after: i) }
        let digitsStart = i
        while i < s.endIndex, s[i].isASCII, s[i].isNumber { i = s.index(after: i) }
        let digits = s[digitsStart..<i]
        guard (1...3).contains(digits.count), let n = Int(digits), n >= 1 else { return nil }
        return (n, s[i...])
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        let s = self
        guard let first = s.firstIndex(where: { !$0.isWhitespace }) else { return s[s.endIndex...] }
        let last = s.lastIndex(where: { !$0.isWhitespace })!
        return s[first...last]
    }

    /// Without the separators (`-`, `,`, `:`, …) and spaces at its end: `Foo -` is `Foo`.
    fileprivate var trimmingSeparators: Substring {
        var s = self
        while let last = s.last, last.isWhitespace || NameGuess.separators.contains(last) { s = s.dropLast() }
        return s
    }
}
