/// The transaction function `db(n) = f(t(n), db(n-1))` (DESIGN §1).
///
/// Pure and total: it never fails, so replaying a log always yields a basis. Assertions that do
/// not fit the basis (an update of a song that is gone) change nothing, which keeps replays of
/// old logs and merged histories well defined.
extension DataBasis {
    public func applying(_ t: Transaction) -> DataBasis {
        applying(t.assertions)
    }

    /// - Parameter keepingPatches: an update of an image's song is kept as its patch, the song
    ///   not read (`SongTable.patch`), unless indexes are built, which relinking would need it
    ///   for. For the open's fold of the tail, which reads no song: a command that reads few
    ///   then pays for those alone. Elsewhere the songs changed are read next (a diff prints
    ///   them, a state taken back is queried), in one pass here rather than one at a time there.
    public func applying(_ assertions: some Collection<Assertion>, keepingPatches: Bool = false) -> DataBasis {
        var b = self
        let patching = keepingPatches && songs.image != nil && !b.ownsBuiltIndexes()
        // Many updates of songs in the image: their rows are read in one pass first. An entry
        // stays good until the first assertion about its song; from then on the delta holds it.
        var before: [SongID: Song] = [:]
        if !patching, songs.image != nil, assertions.count >= Self.readsSongsTogether {
            before = songs.songs(assertions.lazy.compactMap { if case .updateSong(let id, _) = $0 { id } else { nil } })
        }
        for a in assertions { b.apply(a, before: &before, patching: patching) }
        return b
    }

    /// `ts` applied in order: exactly `ts.reduce(self) { $0.applying($1) }`, since applying a
    /// transaction is applying its assertions in turn, but their assertions go through one
    /// `applying`, which reads the image's rows of every updated song in one pass. Opening a
    /// library folds the tail after its checkpoint this way: a hundred small edits read alone
    /// would resolve every column of the image once per song.
    public func applying(transactions ts: [Transaction], keepingPatches: Bool = false) -> DataBasis {
        applying(ts.lazy.flatMap(\.assertions), keepingPatches: keepingPatches)
    }

    /// From how many assertions a transaction's updated songs are read together.
    static let readsSongsTogether = 4

    public mutating func apply(_ a: Assertion) {
        var none: [SongID: Song] = [:]
        apply(a, before: &none, patching: false)
    }

    /// `before`: songs as they were before the transaction, read ahead; an entry is good until
    /// the first assertion about its song, which takes it out.
    private mutating func apply(_ a: Assertion, before: inout [SongID: Song], patching: Bool) {
        switch a {
        case .addSong(let s):
            before[s.id] = nil
            insert(s)
        case .deleteSong(let s):
            before[s.id] = nil
            remove(s.id)
        case .updateSong(let id, let patch):
            if patching, songs.changed[id] == nil {
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
