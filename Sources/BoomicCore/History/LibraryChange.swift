/// What some transactions changed, by entity: what a long-lived front (the player, the MPD
/// server) needs to know to refresh its views without comparing whole bases. MPD's `idle` maps
/// onto it: songs → `database`, playlists and taglists → `stored_playlist`.
public struct LibraryChange: Sendable, Equatable {
    /// The head before and after: the change covers transactions `from + 1 ... to`.
    public var from: Int
    public var to: Int
    /// Songs added, changed or removed.
    public var songs: Set<SongID> = []
    /// Whether a song was added or removed (not only changed).
    public var songsAddedOrRemoved = false
    /// The fields the changed songs' updates touched: a front showing some fields can let a
    /// change of others pass (the MPD server does not tell clients `database` for a rating).
    public var songFields: Set<SongField> = []
    public var playlists: Set<ListID> = []
    public var eqProfiles: Set<ListID> = []
    /// Albums and artists starred, rated or cleared.
    public var annotations: Set<AnnotationKey> = []
    public var taglists: Set<ListID> = []
    /// The kinds of the transactions (`edit`, `import`, `play`, …), so a front can tell plays from edits.
    public var kinds: Set<Transaction.Kind> = []

    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// The change made by `transactions`, the ones after `from` in order.
    public init(from: Int, transactions: [Transaction]) {
        self.init(from: from, to: from + transactions.count)
        for t in transactions {
            kinds.insert(t.kind)
            for a in t.assertions {
                switch a {
                case .addSong(let s), .deleteSong(let s):
                    songs.insert(s.id)
                    songsAddedOrRemoved = true
                case .updateSong(let id, let patch):
                    songs.insert(id)
                    songFields.formUnion(patch.keys)
                case .taglist(let id, _): taglists.insert(id)
                case .playlist(let id, _): playlists.insert(id)
                case .eqProfile(let id, _): eqProfiles.insert(id)
                case .annotation(let key, _): annotations.insert(key)
                }
            }
        }
    }
}
