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
                var back = now
                var skipped = Set<SongField>()
                for (f, c) in patch where f != .fileValues {
                    let cur = f.value(in: now)
                    if cur == c.old { continue }
                    if cur != c.new {
                        conflicts.append(Conflict(song: id, field: f, expected: c.new, current: cur))
                        if !force { skipped.insert(f); continue }
                    }
                    f.set(c.old, in: &back)
                }
                // `file_values` holds one entry per field; put back only the entries this
                // transaction changed and nothing changed since, so other edits' entries stay.
                if let c = patch[.fileValues] {
                    let was = Self.fileValueMap(c.old, like: now), became = Self.fileValueMap(c.new, like: now)
                    var current = back.fileValueMap
                    for f in Set(was.keys).union(became.keys)
                    where was[f] != became[f] && current[f] == became[f] && !skipped.contains(f) {
                        current[f] = was[f]
                    }
                    back.fileValueMap = current
                }
                let p = now.patch(to: back)
                if !p.isEmpty { out.append(.updateSong(id, p)) }
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

    private static func fileValueMap(_ v: FieldValue, like song: Song) -> [SongField: FieldValue] {
        var s = song
        SongField.fileValues.set(v, in: &s)
        return s.fileValueMap
    }
}
