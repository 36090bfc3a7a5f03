/// The generation function for `revert REF`: undo one transaction, keep everything after it.
///
/// Like `git revert`: each assertion of the reverted transaction is inverted against the latest
/// basis. A field that a later transaction changed again is a conflict — reverting it would
/// silently throw away the later change — so it is reported and left alone unless forced.
public enum RevertGeneration {
    public struct Conflict: Equatable, Sendable {
        /// The song, taglist or playlist in conflict.
        public var entity: EntityKey
        /// nil when the conflict is about the whole entity (it was re-added, or changed after being added).
        public var field: SongField?
        /// What the reverted transaction set, and what the library holds now.
        public var expected: FieldValue
        public var current: FieldValue
        /// Whether `force` overwrites it. A name conflict is left alone even then: two lists of
        /// one name could not be told apart.
        public var isOverridable = true

        public init(song: SongID, field: SongField?, expected: FieldValue, current: FieldValue) {
            self.init(entity: .song(song), field: field, expected: expected, current: current)
        }

        public init(entity: EntityKey, field: SongField?, expected: FieldValue, current: FieldValue) {
            self.entity = entity
            self.field = field
            self.expected = expected
            self.current = current
        }

        /// The song in conflict, when it is a song.
        public var song: SongID? {
            if case .song(let id) = entity { return id }
            return nil
        }
    }

    /// - Parameter keepingPlays: leave the play fields (`SongField.isPlayField`) as they are, as
    ///   `revert` does without `--plays`: a play is a fact, not an edit to take back.
    public static func revert(_ t: Transaction, on basis: DataBasis, force: Bool, keepingPlays: Bool = false)
        -> (assertions: [Assertion], conflicts: [Conflict]) {
        var out: [Assertion] = []
        var conflicts: [Conflict] = []
        for a in t.assertions {
            switch a {
            case .updateSong(let id, let patch):
                guard let now = basis[id] else { continue }
                var back = now
                var skipped = Set<SongField>()
                for (f, c) in patch where f != .fileValues && f != .userFields && !(keepingPlays && f.isPlayField) {
                    let cur = f.value(in: now)
                    if cur == c.old { continue }
                    if cur != c.new {
                        conflicts.append(Conflict(song: id, field: f, expected: c.new, current: cur))
                        if !force { skipped.insert(f); continue }
                    }
                    f.set(c.old, in: &back)
                }
                // User fields are one song field holding each of them: revert each field this
                // transaction changed on its own, so a later edit of another field is no conflict.
                if let c = patch[.userFields] {
                    let was = Self.userFieldMap(c.old, like: now), became = Self.userFieldMap(c.new, like: now)
                    var current = back.userFieldMap
                    for name in Set(was.keys).union(became.keys).sorted() where was[name] != became[name] {
                        if current[name] == was[name] { continue }
                        if current[name] != became[name] {
                            func shown(_ v: String?) -> FieldValue { v.map { .string(name + "=" + $0) } ?? .string(name + " unset") }
                            conflicts.append(Conflict(song: id, field: .userFields, expected: shown(became[name]), current: shown(current[name])))
                            if !force { continue }
                        }
                        current[name] = was[name]
                    }
                    back.userFields = Song.normalizedUserFields(current.map { $0.key + "=" + $0.value })
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
            case .taglist(let id, let change):
                if let back = revert(change, now: basis.taglists[id], key: .taglist(id), force: force, conflicts: &conflicts) {
                    out.append(.taglist(id, back))
                }
            case .playlist(let id, let change):
                if let back = revert(change, now: basis.playlists[id], key: .playlist(id), force: force, conflicts: &conflicts) {
                    out.append(.playlist(id, back))
                }
            case .eqProfile(let id, let change):
                if let back = revert(change, now: basis.eqProfiles[id], key: .eqProfile(id), force: force, conflicts: &conflicts) {
                    out.append(.eqProfile(id, back))
                }
            case .annotation(let key, let change):
                if let back = revert(change, now: basis.annotations[key], key: .annotation(key), force: force, conflicts: &conflicts) {
                    out.append(.annotation(key, back))
                }
            }
        }
        return (keepingNamesUnique(out, on: basis, &conflicts), conflicts)
    }

    /// Names stay unique: a list the revert would give a name another list holds after the revert
    /// is left as it is and reported, even with `force` (two lists of one name could not be told
    /// apart). Checked on the state after the whole revert, since one revert may rename several.
    private static func keepingNamesUnique(_ assertions: [Assertion], on basis: DataBasis,
                                           _ conflicts: inout [Conflict]) -> [Assertion] {
        var kept = assertions
        while true {
            let after = basis.applying(kept)
            func uses(_ names: some Sequence<String>) -> [String: Int] {
                names.reduce(into: [:]) { $0[ListNames.key($1), default: 0] += 1 }
            }
            let taglistNames = uses(after.taglists.values.map(\.name)), playlistNames = uses(after.playlists.values.map(\.name))
            let profileNames = uses(after.eqProfiles.values.map(\.name))
            var clashing: [(Int, String)] = []
            for (i, a) in kept.enumerated() {
                switch a {
                case .taglist(_, let c): if let n = c.new?.name, taglistNames[ListNames.key(n), default: 0] > 1 { clashing.append((i, n)) }
                case .playlist(_, let c): if let n = c.new?.name, playlistNames[ListNames.key(n), default: 0] > 1 { clashing.append((i, n)) }
                case .eqProfile(_, let c): if let n = c.new?.name, profileNames[ListNames.key(n), default: 0] > 1 { clashing.append((i, n)) }
                default: break
                }
            }
            guard !clashing.isEmpty else { return kept }
            for (i, name) in clashing {
                var c = Conflict(entity: kept[i].entity, field: nil, expected: .string("named '\(name)' again"),
                                 current: .string("that name is taken by another list"))
                c.isOverridable = false
                conflicts.append(c)
            }
            let drop = Set(clashing.map(\.0))
            kept = kept.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
        }
    }

    /// A taglist or playlist goes back to its old value if it still holds what the reverted
    /// transaction made of it; otherwise a later change would be lost, which is a conflict.
    private static func revert<V>(_ change: EntityChange<V>, now: V?, key: EntityKey, force: Bool,
                                  conflicts: inout [Conflict]) -> EntityChange<V>? {
        if now == change.old { return nil }
        if now != change.new {
            conflicts.append(Conflict(entity: key, field: nil,
                                      expected: .string(change.new == nil ? "deleted" : "as the transaction left it"),
                                      current: .string(now == nil ? "deleted since" : "changed since")))
            if !force { return nil }
        }
        guard now != nil || change.old != nil else { return nil }
        return EntityChange(old: now, new: change.old)
    }

    private static func userFieldMap(_ v: FieldValue, like song: Song) -> [String: String] {
        var s = song
        SongField.userFields.set(v, in: &s)
        return s.userFieldMap
    }

    private static func fileValueMap(_ v: FieldValue, like song: Song) -> [SongField: FieldValue] {
        var s = song
        SongField.fileValues.set(v, in: &s)
        return s.fileValueMap
    }
}
