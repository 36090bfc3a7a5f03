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

    /// Strings by bytes: a path renamed from NFC to NFD is a change, though `==` calls the
    /// two canonically equivalent names equal.
    public var isNoOp: Bool { old.isIdentical(to: new) }
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
            if a != b || (f == .path && !a.isIdentical(to: b)) { p[f] = FieldChange(old: a, new: b) }
        }
        return p
    }
}

extension FieldValue {
    /// Equal, and strings equal byte for byte (not merely canonically equivalent).
    func isIdentical(to other: FieldValue) -> Bool {
        switch (self, other) {
        case let (.string(a), .string(b)): return a.sameBytes(as: b)
        case let (.strings(a), .strings(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.sameBytes(as: $1) }
        default: return self == other
        }
    }
}
