import Foundation

/// `blame`: for each song and field, the transaction that set the value it holds now.
///
/// Walks the history backwards; the first transaction (from the newest) that set a field is the
/// one to blame. An `add` sets every field of the song it adds. Pure: the log is passed in.
public enum Blame {
    public struct Origin: Equatable, Sendable {
        public var seq: Int
        public var transaction: UUID
        public init(seq: Int, transaction: UUID) { self.seq = seq; self.transaction = transaction }
    }

    /// - Parameters:
    ///   - songs: the songs to explain.
    ///   - fields: the fields to explain (all fields when empty).
    ///   - newestFirst: the log from the newest transaction back, stopping early is the caller's
    ///     gain: the walk ends as soon as every field is explained.
    public static func origins(of songs: Set<SongID>, fields: [SongField],
                               newestFirst: some Sequence<(seq: Int, transaction: Transaction)>)
        -> [SongID: [SongField: Origin]] {
        origins(of: songs, keys: fields.isEmpty ? SongField.allCases : fields, newestFirst: newestFirst) { patch, asked in
            patch.keys.filter(asked.contains)
        }
    }

    /// The same for the user's own fields, by name (`mood`): the transaction that set the value
    /// the song holds now, or cleared it, or else added the song. Every change to any user field
    /// rewrites the song's whole `user_fields` list, so an update is blamed for a name only when
    /// that name's value differs between the list's old and new values.
    public static func origins(of songs: Set<SongID>, userFields names: [String],
                               newestFirst: some Sequence<(seq: Int, transaction: Transaction)>)
        -> [SongID: [String: Origin]] {
        origins(of: songs, keys: names, newestFirst: newestFirst) { patch, asked in
            guard let c = patch[.userFields] else { return [] }
            return asked.filter { userField($0, in: c.old) != userField($0, in: c.new) }
        }
    }

    /// A song's history as the song → transactions index gives it: newest first, each entry what
    /// the transaction at `seq` did to the song (`SongTouch`, its assertions in order).
    public typealias Touches = [(seq: Int, touches: [SongTouch])]

    /// The same walk over each song's own history (the index), instead of the whole log: the
    /// answer is the seq that set each field. Equal to the walk over the log for every history.
    public static func origins(of songs: Set<SongID>, fields: [SongField],
                               history: [SongID: Touches]) -> [SongID: [SongField: Int]] {
        let keys = fields.isEmpty ? SongField.allCases : fields
        return origins(of: songs, keys: keys, history: history) { _, _, _, fields, asked in
            asked.filter(fields.contains)
        }
    }

    /// The user fields, by name, over each song's own history. `set(seq, song, n, names)` says
    /// which of `names` the song's `n`th assertion in the transaction at `seq` (an update of
    /// `user_fields`) set: only those transactions' values decide (`userFieldsSet`), so only they
    /// are decoded.
    public static func origins(of songs: Set<SongID>, userFields names: [String], history: [SongID: Touches],
                               set: (Int, SongID, Int, Set<String>) throws -> [String]) rethrows -> [SongID: [String: Int]] {
        try origins(of: songs, keys: names, history: history) { seq, id, n, fields, asked in
            fields.contains(.userFields) ? try set(seq, id, n, asked) : []
        }
    }

    /// The names among `asked` whose value an update of `user_fields` changed.
    public static func userFieldsSet(by patch: SongPatch, among asked: Set<String>) -> [String] {
        guard let c = patch[.userFields] else { return [] }
        return asked.filter { userField($0, in: c.old) != userField($0, in: c.new) }
    }

    /// The walk over songs' own histories; `set(seq, song, n, fields, open)` says which open keys
    /// the song's `n`th assertion in that transaction, an update of `fields`, set.
    private static func origins<Key: Hashable>(of songs: Set<SongID>, keys wanted: [Key], history: [SongID: Touches],
                                               set: (Int, SongID, Int, Set<SongField>, Set<Key>) throws -> [Key]) rethrows
        -> [SongID: [Key: Int]] {
        var result: [SongID: [Key: Int]] = [:]
        for id in songs {
            var open = Set(wanted)
            walk: for (seq, touches) in history[id] ?? [] {
                for (n, touch) in touches.enumerated() {
                    switch touch {
                    case .update(let fields):
                        for k in try set(seq, id, n, fields, open) where open.remove(k) != nil {
                            result[id, default: [:]][k] = seq
                        }
                    case .add:
                        for k in open { result[id, default: [:]][k] = seq }
                        open.removeAll()
                    case .delete:
                        open.removeAll()
                    }
                    if open.isEmpty { break walk }
                }
            }
        }
        return result
    }

    /// One user field's value in a `user_fields` value (entries `name=value`).
    static func userField(_ name: String, in v: FieldValue) -> String? {
        guard case .strings(let entries) = v else { return nil }
        let prefix = name + "="
        return entries.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The walk, for any kind of key: `set` says which of the keys still open an update sets.
    private static func origins<Key: Hashable>(of songs: Set<SongID>, keys wanted: [Key],
                                               newestFirst: some Sequence<(seq: Int, transaction: Transaction)>,
                                               set: (SongPatch, Set<Key>) -> [Key]) -> [SongID: [Key: Origin]] {
        var open: [SongID: Set<Key>] = Dictionary(uniqueKeysWithValues: songs.map { ($0, Set(wanted)) })
        var result: [SongID: [Key: Origin]] = [:]
        for (seq, t) in newestFirst {
            if open.isEmpty { break }
            for a in t.assertions {
                guard let id = a.songID, var remaining = open[id] else { continue }
                let origin = Origin(seq: seq, transaction: t.id)
                switch a {
                case .updateSong(_, let patch):
                    for k in set(patch, remaining) {
                        result[id, default: [:]][k] = origin
                        remaining.remove(k)
                    }
                case .addSong:
                    for f in remaining { result[id, default: [:]][f] = origin }
                    remaining.removeAll()
                case .deleteSong:
                    // The song was absent before this point; what it holds now was set after.
                    remaining.removeAll()
                case .taglist, .playlist, .eqProfile, .annotation:
                    break
                }
                open[id] = remaining.isEmpty ? nil : remaining
            }
        }
        return result
    }
}
