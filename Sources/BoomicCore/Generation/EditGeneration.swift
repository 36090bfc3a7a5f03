/// Generation functions for `modify` and `tag`: user intent → the exact assertions, computed on
/// the latest basis. Songs already as asked produce nothing, so a no-op edit commits nothing.
public enum EditGeneration {
    public static func modify(_ basis: DataBasis, songs ids: [SongID], set assignments: [FieldAssignment]) -> [Assertion] {
        let fields = Set(assignments.filter { $0.userField == nil }.map(\.field))
        return ids.compactMap { id in
            guard let old = basis[id] else { return nil }
            var new = old
            for a in assignments {
                if let name = a.userField { new.setUserField(name, to: a.value.string) } else { new.edit(a.field, to: a.value) }
            }
            new.settleArtistCredit(afterSetting: fields)
            let p = old.patch(to: new)
            return p.isEmpty ? nil : .updateSong(id, p)
        }
    }

    /// Adds and removes tags. Removing `x` also removes its children `x:…`, as deleting a folder would.
    public static func tag(_ basis: DataBasis, songs ids: [SongID], add: [String], remove: [String]) -> [Assertion] {
        let add = Song.normalizedTags(add), remove = Song.normalizedTags(remove)
        return ids.compactMap { id in
            guard let old = basis[id] else { return nil }
            var tags = old.tags.filter { t in !remove.contains { t == $0 || t.hasPrefix($0 + ":") } }
            tags += add
            let new = Song.normalizedTags(tags)
            guard new != old.tags else { return nil }
            return .updateSong(id, [.tags: FieldChange(old: .strings(old.tags), new: .strings(new))])
        }
    }

    /// Removes songs from the library (never their files).
    public static func remove(_ basis: DataBasis, songs ids: [SongID]) -> [Assertion] {
        ids.compactMap { basis[$0].map(Assertion.deleteSong) }
    }

    /// The rollback transaction's assertions: whatever turns `current` into `target`.
    public static func rollback(from current: DataBasis, to target: DataBasis) -> [Assertion] {
        current.diff(to: target)
    }

    /// The same assertions read from the log: the transactions after the target up to the
    /// current state (`span`, in log order), flattened and taken back. O(the span), where the
    /// diff of the two states is O(the library). Law (`RollbackFromLogLawTests`): equal to
    /// `rollback(from:to:)` of the two states the span joins.
    public static func rollback(takingBack span: [Transaction]) -> [Assertion] {
        LogDiff.assertions(span, from: span.count, to: 0)
    }
}
