import HashTreeCollections

extension EditGeneration {
    /// `rollback(from:to:)` when the songs that differ are known to be among `songs` (those the
    /// transactions between the two states touched, from the song → transactions index): only
    /// they are compared, where the diff of the two states compares every song. Taglists,
    /// playlists, EQ profiles and annotations, which that index does not name, are compared
    /// whole: they are few, and subtrees the two states share are skipped.
    ///
    /// Law (`RollbackFromLogLawTests`): equal to `rollback(from:to:)` when `songs` holds every
    /// song an assertion between the two states names.
    public static func rollback(from current: DataBasis, to target: DataBasis, songs: some Sequence<SongID>) -> [Assertion] {
        var out = changes(current.taglists, target.taglists, Assertion.taglist)
            + changes(current.playlists, target.playlists, Assertion.playlist)
            + changes(current.eqProfiles, target.eqProfiles, Assertion.eqProfile)
            + changes(current.annotations, target.annotations, Assertion.annotation)
        let ids = Set(songs)
        // Read together, each state's image rows in one pass: a rollback of thousands of songs
        // would otherwise materialise each song of both states alone.
        let before = current.songs.songs(ids), after = target.songs.songs(ids)
        for id in ids {
            switch (before[id], after[id]) {
            case let (old?, new?): if old != new { out.append(.updateSong(id, old.patch(to: new))) }
            case let (old?, nil): out.append(.deleteSong(old))
            case let (nil, new?): out.append(.addSong(new))
            case (nil, nil): break
            }
        }
        return out.sorted { $0.entity < $1.entity }
    }

    private static func changes<K, V: Equatable>(_ a: TreeDictionary<K, V>, _ b: TreeDictionary<K, V>,
                                                 _ make: (K, EntityChange<V>) -> Assertion) -> [Assertion] {
        if a == b { return [] }
        var out: [Assertion] = []
        for (id, old) in a where b[id] != old { out.append(make(id, EntityChange(old: old, new: b[id]))) }
        for (id, new) in b where a[id] == nil { out.append(make(id, EntityChange(old: nil, new: new))) }
        return out
    }
}
