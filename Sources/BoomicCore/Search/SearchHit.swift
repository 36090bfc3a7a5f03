import Foundation

/// What a search hit is. The order of the cases is the last tie-break between hits of equal
/// tier and name length: collections before songs, the things people browse by first.
public enum SearchKind: String, Sendable, Codable, CaseIterable, Comparable {
    case artist, album, playlist, taglist, song

    public static func < (a: SearchKind, b: SearchKind) -> Bool { a.rank < b.rank }

    var rank: Int { Self.allCases.firstIndex(of: self)! }
}

/// How well a hit matched, best first. See `Documentation/search.md`.
public enum SearchTier: Int, Sendable, Codable, Comparable, CaseIterable {
    /// The whole name is the text (`kind of blue` → *Kind of Blue*; `acdc` → *AC/DC*).
    case exact
    /// The name starts with the text (`kind of` → *Kind of Blue*).
    case namePrefix
    /// Every word of the text starts a word somewhere (`blue miles` → *Blue in Green* by Miles Davis).
    case wordPrefix
    /// Every word of the text is inside some field, punctuation and spaces ignored (`oltra` → *Coltrane*).
    case substring

    public static func < (a: SearchTier, b: SearchTier) -> Bool { a.rawValue < b.rawValue }
}

/// A field of a hit that the text matched, with its text as shown.
public enum SearchField: String, Sendable, Codable, CaseIterable {
    /// The hit's own name: a song's title (its file name when it has none), an album's title,
    /// an artist's, taglist's or playlist's name.
    case name
    case artist, album, albumartist, composer
}

/// A taglist or playlist offered to the search by the caller (they are not in the basis).
public struct SearchItem: Sendable, Equatable, Hashable {
    public enum Kind: String, Sendable, Codable { case taglist, playlist }

    public var kind: Kind
    /// Opaque to the search; comes back in the hit and breaks ties between equal names.
    public var id: String
    public var name: String

    public init(kind: Kind, id: String, name: String) {
        self.kind = kind
        self.id = id
        self.name = name
    }
}

/// One result of `DataBasis.search`.
public struct SearchHit: Sendable, Equatable {
    public enum Subject: Sendable, Equatable {
        case song(SongID)
        /// `title` and `artist` are spelled as `ls -a` shows them (the album's first song by disc,
        /// track and path); `songs` counts every song of the album.
        case album(AlbumKey, title: String, artist: String, songs: Int)
        /// `key` is the folded name the basis indexes artists by; `name` the spelling `ls --artists`
        /// shows; the counts are those `ls --artists` shows.
        case artist(key: String, name: String, albums: Int, songs: Int)
        case taglist(id: String, name: String)
        case playlist(id: String, name: String)
    }

    /// A field the text matched in, and that field's text.
    public struct Match: Sendable, Equatable {
        public var field: SearchField
        public var text: String

        public init(field: SearchField, text: String) {
            self.field = field
            self.text = text
        }
    }

    public var subject: Subject
    /// The name as shown (a song's title, an album's title, an artist's name, …).
    public var name: String
    public var tier: SearchTier
    /// Every word matched in the name itself (always true for `.exact` and `.namePrefix`).
    /// An artist called *Miles Davis* outranks songs that only list him, in the same tier.
    public var isNameMatch: Bool
    /// The fields that matched at this hit's tier, in `SearchField` order.
    public var matches: [Match]

    public init(subject: Subject, name: String, tier: SearchTier, isNameMatch: Bool, matches: [Match]) {
        self.subject = subject
        self.name = name
        self.tier = tier
        self.isNameMatch = isNameMatch
        self.matches = matches
    }

    public var kind: SearchKind {
        switch subject {
        case .song: .song
        case .album: .album
        case .artist: .artist
        case .taglist: .taglist
        case .playlist: .playlist
        }
    }
}

/// Search text that cannot be searched for.
public enum SearchError: Error, Equatable, LocalizedError {
    /// Empty, blank, or only punctuation and symbols: nothing to look for.
    case noWords(String)
    /// More words than the search handles (`SearchQuery.maxWords`).
    case tooManyWords(count: Int, max: Int)

    public var errorDescription: String? {
        switch self {
        case .noWords(let text):
            text.allSatisfy(\.isWhitespace)
                ? "nothing to search for: give some text, e.g. boomic search 'kind of blue'"
                : "nothing to search for in '\(OneLine.excerpt(text, around: 0))': search looks at letters and digits, give some"
        case .tooManyWords(let count, let max):
            "the search text has \(count) words; give at most \(max)"
        }
    }
}
