/// The transaction function `db(n) = f(t(n), db(n-1))` (DESIGN §1).
///
/// Pure and total: it never fails, so replaying a log always yields a basis. Assertions that do
/// not fit the basis (an update of a song that is gone) change nothing, which keeps replays of
/// old logs and merged histories well defined.
extension DataBasis {
    public func applying(_ t: Transaction) -> DataBasis {
        applying(t.assertions)
    }

    public func applying(_ assertions: some Sequence<Assertion>) -> DataBasis {
        var b = self
        for a in assertions { b.apply(a) }
        return b
    }

    public mutating func apply(_ a: Assertion) {
        switch a {
        case .addSong(let s):
            insert(s)
        case .deleteSong(let s):
            remove(s.id)
        case .updateSong(let id, let patch):
            guard let old = songs[id] else { return }
            let new = old.applying(patch)
            if new != old { insert(new) }
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
