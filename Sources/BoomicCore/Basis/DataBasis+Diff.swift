/// `diff(a, b)`: the assertions that turn one basis into another.
///
/// Rollback is built on it (the rollback transaction is `diff(current, target)`), and so are
/// `boomic diff` and `--dry-run` previews. Law: `a.applying(diff(a, b)) == b`.
extension DataBasis {
    /// Complexity: O(n) in the number of songs, but subtrees shared by the two bases are
    /// cheap to compare, so neighbouring states diff quickly.
    public func diff(to other: DataBasis) -> [Assertion] {
        if songs == other.songs { return [] }
        var out: [Assertion] = []
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
        return out.sorted { $0.songID < $1.songID }
    }
}
