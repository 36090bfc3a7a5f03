/// A parsed QUERY (DESIGN §4, the beets conventions). Equatable, so parser tests compare trees.
public indirect enum Query: Equatable, Sendable {
    case all
    /// `artist:miles`, `year:1990..1999`, `title:=So What`
    case field(SongField, Match)
    /// `mood:happy`: one of the user's own fields (beets' flexible attributes).
    case userField(String, Match)
    /// Bare words: matched against title, artist, album, album artist, genre, composer and path.
    case anyField(Match)
    /// `#jazz`, `#instruments:piano`; `#instruments:` (trailing colon) is any child.
    case tag(String, includeChildren: Bool)
    case not(Query)
    case and([Query])
    case or([Query])

    /// How a term's pattern is compared. An explicit operator wins over the field's type,
    /// which wins over substring (beets' order).
    public enum Match: Equatable, Sendable {
        /// Case- and accent-insensitive substring; the needle is stored folded.
        case substring(String)
        /// `=value`: the whole value, case-sensitive as beets does.
        case exact(String)
        /// `=~value`: the whole value, ignoring case (beets' `=~`); stored case-folded
        /// (`CaseFold`, so `=~strasse` is `Straße`).
        case exactIgnoringCase(String)
        /// A part of the value, ignoring case but not accents, as MPD's `search` compares
        /// (`motorhead` does not find Motörhead there, and `ö` finds only an ö), with ICU's
        /// full case folding (`strasse` finds Straße); stored case-folded (`CaseFold`). No query
        /// text spells it: the MPD server's filters make it.
        case substringIgnoringCase(String)
        /// `::regex`
        case regex(String)
        /// `a..b`, `a..`, `..b`, or a single number (lo == hi); for `added:`, dates made into
        /// seconds since 1970.
        case range(lower: Double?, upper: Double?)
        /// `path:/music/jazz`: that file, or everything in that folder.
        case pathPrefix(String)
    }

    /// Fields that bare words look in.
    public static let anyFieldTargets: [SongField] = [.title, .artists, .artistCredit, .album, .albumartist, .genre, .composer, .path]
}

/// `year+` / `title-` at the end of a query.
public struct SortKey: Equatable, Sendable {
    /// The song field, or `.userFields` when `userField` names one of the user's fields.
    public var field: SongField
    public var userField: String?
    public var ascending: Bool

    public init(field: SongField, ascending: Bool) {
        self.field = field
        self.ascending = ascending
    }

    public init(userField: String, ascending: Bool) {
        self.field = .userFields
        self.userField = userField
        self.ascending = ascending
    }

    /// The value sorted on, as queries see it; artists as displayed (the credit, if any). The
    /// artist, album artist and album sort by the file's sort name where it has one, as beets'
    /// smart artist sort does: `The Beatles` sorts as `Beatles, The`.
    func value(in song: Song) -> FieldValue {
        switch field {
        case .artists: return (song.artistSort ?? song.artist).map(FieldValue.string) ?? .null
        case .albumartist: if let s = song.albumartistSort { return .string(s) }
        case .album: if let s = song.albumSort { return .string(s) }
        default: break
        }
        guard let name = userField else { return field.queryValue(in: song) }
        return UserFieldValue.typed(song.userField(name))
    }
}

/// How a user field's text reads as a value: a number when it is one in the shared number
/// syntax (so `bpm+` sorts 90 before 120 and `bpm:100..` compares numbers), else the text.
enum UserFieldValue {
    static func typed(_ text: String?) -> FieldValue {
        guard let text else { return .null }
        return DecimalNumber.parse(text).map(FieldValue.double) ?? .string(text)
    }
}

/// A query with its sort order, as typed on the command line.
public struct ParsedQuery: Equatable, Sendable {
    public var query: Query
    public var sort: [SortKey]

    public init(query: Query, sort: [SortKey] = []) {
        self.query = query
        self.sort = sort
    }
}
