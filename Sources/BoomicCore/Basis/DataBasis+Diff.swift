import HashTreeCollections

/// `diff(a, b)`: the assertions that turn one basis into another.
///
/// Rollback is built on it (the rollback transaction is `diff(current, target)`), and so are
/// `boomic diff` and `--dry-run` previews. Law: `a.applying(diff(a, b)) == b`.
extension DataBasis {
    /// Complexity: O(change) for two states over one image; else O(n) in the number of songs,
    /// but subtrees shared by the two bases are cheap to compare, so neighbouring states diff
    /// quickly.
    public func diff(to other: DataBasis) -> [Assertion] {
        var out = Self.diff(taglists, other.taglists, Assertion.taglist)
            + Self.diff(playlists, other.playlists, Assertion.playlist)
            + Self.diff(eqProfiles, other.eqProfiles, Assertion.eqProfile)
            + Self.diff(annotations, other.annotations, Assertion.annotation)
        if let ids = songs.changedIDs(comparedTo: other.songs) {
            // Two states over one image differ only where their deltas do: O(change). Each side's
            // songs read in one pass: an image's row read alone resolves every column again.
            let mine = songs.songs(ids), theirs = other.songs.songs(ids)
            for id in ids {
                switch (mine[id], theirs[id]) {
                case let (old?, new?): if new != old { out.append(.updateSong(id, old.patch(to: new))) }
                case let (old?, nil): out.append(.deleteSong(old))
                case let (nil, new?): out.append(.addSong(new))
                case (nil, nil): break
                }
            }
            return out.sorted { $0.entity < $1.entity }
        }
        if songs == other.songs { return out.sorted { $0.entity < $1.entity } }
        for (id, old) in songs {
            if let new = other.songs[id] {
                if new != old { out.append(.updateSong(id, old.patch(to: new))) }
            } else {
                out.append(.deleteSong(old))
            }
        }
        for (id, new) in other.songs where songs[id] == nil {
            out.append(.addSong(new))
        }
        return out.sorted { $0.entity < $1.entity }
    }

    private static func diff<K, V>(_ a: TreeDictionary<K, V>, _ b: TreeDictionary<K, V>,
                                   _ make: (K, EntityChange<V>) -> Assertion) -> [Assertion] {
        if a == b { return [] }
        var out: [Assertion] = []
        for (id, old) in a where b[id] != old { out.append(make(id, EntityChange(old: old, new: b[id]))) }
        for (id, new) in b where a[id] == nil { out.append(make(id, EntityChange(old: nil, new: new))) }
        return out
    }
}
