/// The transaction function `db(n) = f(t(n), db(n-1))` (DESIGN §1).
///
/// Pure and total: it never fails, so replaying a log always yields a basis. Assertions that do
/// not fit the basis (an update of a song that is gone) change nothing, which keeps replays of
/// old logs and merged histories well defined.
extension DataBasis {
    public func applying(_ t: Transaction) -> DataBasis {
        applying(t.assertions)
    }

    public func applying(_ assertions: some Collection<Assertion>) -> DataBasis {
        var b = self
        // Many updates of songs in the image, with indexes to relink: their rows are read in one
        // pass first. An entry stays good until the first assertion about its song; from then on
        // the delta holds it. Without indexes an update is kept as a patch, reading nothing.
        var before: [SongID: Song] = [:]
        if songs.image != nil, assertions.count >= Self.readsSongsTogether, b.ownsBuiltIndexes() {
            before = songs.songs(assertions.lazy.compactMap { if case .updateSong(let id, _) = $0 { id } else { nil } })
        }
        for a in assertions { b.apply(a, before: &before) }
        return b
    }

    /// `ts` applied in order: exactly `ts.reduce(self) { $0.applying($1) }`, since applying a
    /// transaction is applying its assertions in turn, but their assertions go through one
    /// `applying`, which reads the image's rows of every updated song in one pass. Opening a
    /// library folds the tail after its checkpoint this way: a hundred small edits read alone
    /// would resolve every column of the image once per song.
    public func applying(transactions ts: [Transaction]) -> DataBasis {
        applying(ts.lazy.flatMap(\.assertions))
    }

    /// From how many assertions a transaction's updated songs are read together.
    static let readsSongsTogether = 4

    public mutating func apply(_ a: Assertion) {
        var none: [SongID: Song] = [:]
        apply(a, before: &none)
    }

    /// `before`: songs as they were before the transaction, read ahead; an entry is good until
    /// the first assertion about its song, which takes it out.
    private mutating func apply(_ a: Assertion, before: inout [SongID: Song]) {
        switch a {
        case .addSong(let s):
            before[s.id] = nil
            insert(s)
        case .deleteSong(let s):
            before[s.id] = nil
            remove(s.id)
        case .updateSong(let id, let patch):
            if songs.changed[id] == nil, !ownsBuiltIndexes() {
                self.patch(id, with: patch)
                return
            }
            guard let old = before.removeValue(forKey: id) ?? songs[id] else { return }
            let new = old.applying(patch)
            if new != old { update(old, to: new) }
        case .taglist(let id, let change):
            setTaglist(id, change.new)
        case .playlist(let id, let change):
            setPlaylist(id, change.new)
        case .eqProfile(let id, let change):
            setEQProfile(id, change.new)
        case .annotation(let key, let change):
            setAnnotation(key, change.new)
        }
    }
}
