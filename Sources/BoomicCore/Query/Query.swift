/// A parsed QUERY (DESIGN §4, the beets conventions). Equatable, so parser tests compare trees.
public indirect enum Query: Equatable, Sendable {
    case all
    /// `artist:miles`, `year:1990..1999`, `title:=So What`
    case field(SongField, Match)
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
        /// `::regex`
        case regex(String)
        /// `a..b`, `a..`, `..b`, or a single number (lo == hi); for `added:`, dates made into
        /// seconds since 1970.
        case range(lower: Double?, upper: Double?)
        /// `path:/music/jazz`: that file, or everything in that folder.
        case pathPrefix(String)
    }

    /// Fields that bare words look in.
    public static let anyFieldTargets: [SongField] = [.title, .artists, .album, .albumartist, .genre, .composer, .path]
}

/// `year+` / `title-` at the end of a query.
public struct SortKey: Equatable, Sendable {
    public var field: SongField
    public var ascending: Bool

    public init(field: SongField, ascending: Bool) {
        self.field = field
        self.ascending = ascending
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
