/// One field's change inside an update: what it was and what it becomes.
///
/// The old value is kept so the log explains itself (`show`), `revert` can tell a conflict from a
/// clean undo, and flatten can drop a field changed and changed back. Applying uses `new` only.
public struct FieldChange: Hashable, Sendable, Codable {
    public var old: FieldValue
    public var new: FieldValue

    public init(old: FieldValue, new: FieldValue) {
        self.old = old
        self.new = new
    }

    public var isNoOp: Bool { old == new }
}

/// A field-level patch of one song, keyed by field.
public typealias SongPatch = [SongField: FieldChange]

extension Song {
    /// The song with a patch applied (new values only).
    public func applying(_ patch: SongPatch) -> Song {
        var s = self
        for (field, change) in patch { field.set(change.new, in: &s) }
        return s
    }

    /// The patch that turns `self` into `other`; empty when they are equal. Ignores `id`.
    public func patch(to other: Song) -> SongPatch {
        var p: SongPatch = [:]
        for f in SongField.allCases {
            let a = f.value(in: self), b = f.value(in: other)
            if a != b { p[f] = FieldChange(old: a, new: b) }
        }
        return p
    }
}
