/// The generation function for `revert REF`: undo one transaction, keep everything after it.
///
/// Like `git revert`: each assertion of the reverted transaction is inverted against the latest
/// basis. A field that a later transaction changed again is a conflict — reverting it would
/// silently throw away the later change — so it is reported and left alone unless forced.
public enum RevertGeneration {
    public struct Conflict: Equatable, Sendable {
        public var song: SongID
        /// nil when the conflict is about the whole song (it was re-added, or changed after being added).
        public var field: SongField?
        /// What the reverted transaction set, and what the library holds now.
        public var expected: FieldValue
        public var current: FieldValue

        public init(song: SongID, field: SongField?, expected: FieldValue, current: FieldValue) {
            self.song = song
            self.field = field
            self.expected = expected
            self.current = current
        }
    }

    public static func revert(_ t: Transaction, on basis: DataBasis, force: Bool)
        -> (assertions: [Assertion], conflicts: [Conflict]) {
        var out: [Assertion] = []
        var conflicts: [Conflict] = []
        for a in t.assertions {
            switch a {
            case .updateSong(let id, let patch):
                guard let now = basis[id] else { continue }
                var back: SongPatch = [:]
                for (f, c) in patch {
                    let cur = f.value(in: now)
                    if cur == c.old { continue }
                    if cur != c.new {
                        conflicts.append(Conflict(song: id, field: f, expected: c.new, current: cur))
                        if !force { continue }
                    }
                    back[f] = FieldChange(old: cur, new: c.old)
                }
                if !back.isEmpty { out.append(.updateSong(id, back)) }
            case .addSong(let s):
                guard let now = basis[s.id] else { continue }
                if now != s {
                    conflicts.append(Conflict(song: s.id, field: nil, expected: .string("as added"), current: .string("changed since")))
                    if !force { continue }
                }
                out.append(.deleteSong(now))
            case .deleteSong(let s):
                if let now = basis[s.id] {
                    if now != s {
                        conflicts.append(Conflict(song: s.id, field: nil, expected: .string("deleted"), current: .string("present again")))
                    }
                    continue
                }
                out.append(.addSong(s))
            }
        }
        return (out, conflicts)
    }
}
