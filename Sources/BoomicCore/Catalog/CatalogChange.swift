/// What a run of transactions changed of what a catalog shows: the songs their assertions add,
/// edit or remove, and the album and artist stars and ratings they set. Taglists, playlists and
/// equalizer profiles are no part of a catalog.
///
/// `Catalog.updated(to:by:)` takes it to follow the transactions between two bases.
public struct CatalogChange: Sendable, Equatable {
    public var songs: Set<SongID> = []
    public var annotations: Set<AnnotationKey> = []

    public init() {}

    /// What `transactions` change, together.
    public init(_ transactions: some Sequence<Transaction>) {
        for t in transactions { add(t.assertions) }
    }

    public mutating func add(_ assertions: [Assertion]) {
        for a in assertions {
            switch a {
            case .addSong(let s), .deleteSong(let s): songs.insert(s.id)
            case .updateSong(let id, _): songs.insert(id)
            case .annotation(let key, _): annotations.insert(key)
            case .taglist, .playlist, .eqProfile: break
            }
        }
    }

    public var isEmpty: Bool { songs.isEmpty && annotations.isEmpty }
}
