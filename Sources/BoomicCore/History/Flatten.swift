/// The flatten function `t(all) = h(t(1) … t(n))` (DESIGN §1).
///
/// Combines many assertions into at most one per song with the same effect:
/// add+update = add', update+update = merged update, add+delete = nothing,
/// update+delete = delete, delete+add = update; a taglist's or playlist's changes combine into
/// one from its first old value to its last new value. Law (for histories where each transaction was
/// generated on the basis it applies to): `db.applying(flatten(ts)) == ts.reduce(db) { $0.applying($1) }`.
public enum Flatten {
    public static func assertions(_ all: some Sequence<Assertion>) -> [Assertion] {
        var entries: [SongID: Entry] = [:]
        var lists: [EntityKey: ListEntry] = [:]
        var order: [EntityKey] = []
        for a in all {
            let key = a.entity
            switch a {
            case .addSong, .updateSong, .deleteSong:
                let id = a.songID!
                if var e = entries[id] {
                    e.absorb(a)
                    entries[id] = e
                } else {
                    entries[id] = Entry(first: a)
                    order.append(key)
                }
            case .taglist, .playlist, .eqProfile, .annotation:
                if let e = lists[key] { lists[key] = e.absorbing(a) } else {
                    lists[key] = ListEntry(first: a)
                    order.append(key)
                }
            }
        }
        return order.compactMap { key in
            if case .song(let id) = key { return entries[id]!.result }
            return lists[key]!.result
        }
    }

    /// The net change of one taglist or playlist: from the first assertion's old value to the
    /// last one's new value; nothing when they are equal.
    private struct ListEntry {
        var first: Assertion
        var last: Assertion

        init(first a: Assertion) { first = a; last = a }

        func absorbing(_ a: Assertion) -> ListEntry { var e = self; e.last = a; return e }

        var result: Assertion? {
            switch (first, last) {
            case (.taglist(let id, let a), .taglist(_, let b)):
                return a.old == b.new ? nil : .taglist(id, EntityChange(old: a.old, new: b.new))
            case (.playlist(let id, let a), .playlist(_, let b)):
                return a.old == b.new ? nil : .playlist(id, EntityChange(old: a.old, new: b.new))
            case (.eqProfile(let id, let a), .eqProfile(_, let b)):
                return a.old == b.new ? nil : .eqProfile(id, EntityChange(old: a.old, new: b.new))
            case (.annotation(let key, let a), .annotation(_, let b)):
                return a.old == b.new ? nil : .annotation(key, EntityChange(old: a.old, new: b.new))
            default: return nil
            }
        }
    }

    /// One transaction with the combined effect of `ts`, carrying the last one's identity.
    public static func transactions(_ ts: [Transaction]) -> Transaction? {
        guard let last = ts.last else { return nil }
        var t = last
        t.parent = ts.first?.parent
        t.label = ts.count == 1 ? last.label : "\(ts.count) transactions flattened"
        t.assertions = assertions(ts.lazy.flatMap(\.assertions))
        t.undoes = nil
        t.redoes = nil
        return t
    }

    /// Merges two successive patches of one song; a field changed and changed back drops out.
    public static func merge(_ p: SongPatch, _ q: SongPatch) -> SongPatch {
        var out = p
        for (f, c) in q {
            let merged = FieldChange(old: p[f]?.old ?? c.old, new: c.new)
            out[f] = merged.isNoOp ? nil : merged
        }
        return out
    }

    private enum Net { case patch(SongPatch), song(Song), gone }

    private struct Entry {
        let id: SongID
        var existedBefore: Bool
        /// The song as it was before the first assertion, when an assertion told us.
        var original: Song?
        var net: Net

        init(first a: Assertion) {
            id = a.songID!
            switch a {
            case .addSong(let s): existedBefore = false; original = nil; net = .song(s)
            case .updateSong(_, let p): existedBefore = true; original = nil; net = .patch(p)
            case .deleteSong(let s): existedBefore = true; original = s; net = .gone
            case .taglist, .playlist, .eqProfile, .annotation: preconditionFailure("list assertions are flattened by ListEntry")
            }
        }

        mutating func absorb(_ a: Assertion) {
            switch (net, a) {
            case (.patch(let p), .updateSong(_, let q)): net = .patch(merge(p, q))
            case (.patch(let p), .deleteSong(let s)):
                original = s.applying(p.mapValues { FieldChange(old: $0.new, new: $0.old) })
                net = .gone
            case (.patch, .addSong(let s)): net = .song(s)
            case (.song(let s), .updateSong(_, let q)): net = .song(s.applying(q))
            case (.song, .deleteSong): net = .gone
            case (.song, .addSong(let s)): net = .song(s)
            case (.gone, .addSong(let s)): net = .song(s)
            case (.gone, .updateSong), (.gone, .deleteSong): break
            case (_, .taglist), (_, .playlist), (_, .eqProfile), (_, .annotation): break
            }
        }

        var result: Assertion? {
            switch (existedBefore, net) {
            case (false, .song(let s)): return .addSong(s)
            case (false, _): return nil
            case (true, .patch(let p)): return p.isEmpty ? nil : .updateSong(id, p)
            case (true, .gone): return original.map(Assertion.deleteSong)
            case (true, .song(let s)):
                guard let o = original else { return .addSong(s) }
                let p = o.patch(to: s)
                return p.isEmpty ? nil : .updateSong(s.id, p)
            }
        }
    }
}
