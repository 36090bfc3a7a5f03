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
        let wanted = fields.isEmpty ? SongField.allCases : fields
        var open: [SongID: Set<SongField>] = Dictionary(uniqueKeysWithValues: songs.map { ($0, Set(wanted)) })
        var result: [SongID: [SongField: Origin]] = [:]
        for (seq, t) in newestFirst {
            if open.isEmpty { break }
            for a in t.assertions {
                guard let id = a.songID, var remaining = open[id] else { continue }
                let origin = Origin(seq: seq, transaction: t.id)
                switch a {
                case .updateSong(_, let patch):
                    for f in patch.keys where remaining.contains(f) {
                        result[id, default: [:]][f] = origin
                        remaining.remove(f)
                    }
                case .addSong:
                    for f in remaining { result[id, default: [:]][f] = origin }
                    remaining.removeAll()
                case .deleteSong:
                    // The song was absent before this point; what it holds now was set after.
                    remaining.removeAll()
                case .taglist, .playlist:
                    break
                }
                open[id] = remaining.isEmpty ? nil : remaining
            }
        }
        return result
    }

    /// Whether a transaction touched any of the songs (`history QUERY`).
    public static func touches(_ t: Transaction, any songs: Set<SongID>) -> Bool {
        t.assertions.contains { $0.songID.map(songs.contains) ?? false }
    }
}
