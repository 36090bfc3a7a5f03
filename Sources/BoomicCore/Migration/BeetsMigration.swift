/// The generation function of `boomic migrate beets`: beets' items (and what their files hold)
/// in, the one `migrate` transaction's assertions out.
///
/// Each item is matched to a song as a rescan matches files (DESIGN §1): by path, then by the
/// file's fingerprint (a song whose file is missing moves to beets' path; a present one with the
/// same audio takes beets' values where it is), else it is a new song read from its file. A song
/// is never added twice, and a second run over the same beets library changes nothing.
public enum BeetsMigration {
    /// One beets item and what the caller read for it.
    public struct Item: Sendable {
        public var record: BeetsRecord
        /// What the file holds, read when no present song is at the item's path (else nil).
        public var facts: FileFacts?
        /// The album's cover (beets' `artpath`, stored in the art store) for a song without a
        /// picture of its own; nil to leave the song's picture as it is.
        public var cover: String?

        public init(record: BeetsRecord, facts: FileFacts? = nil, cover: String? = nil) {
            self.record = record
            self.facts = facts
            self.cover = cover
        }
    }

    public struct Summary: Equatable, Sendable {
        public var added = 0, updated = 0, unchanged = 0
        public init() {}
    }

    public struct Plan: Sendable {
        public var assertions: [Assertion] = []
        public var summary = Summary()
        /// Items without a song to carry them to (no song at the path and no file read).
        public var unmatched: [BeetsRecord] = []
        /// Per item whose values could not all be carried: the item and what was left out.
        public var notCarried: [(record: BeetsRecord, values: [String])] = []
    }

    /// - Parameters:
    ///   - now: the time recorded as `added` on a new song beets gave no date for.
    public static func plan(basis: DataBasis, items: [Item], now: Double, ids: inout some IDSource) -> Plan {
        var plan = Plan()
        // Songs as this run leaves them, and the order they were first touched in.
        var working: [SongID: Song] = [:]
        var order: [SongID] = []
        var added: [Song] = []
        var claimed = Set<SongID>()

        for item in items {
            let values = BeetsMapping.values(of: item.record)
            if !values.unknown.isEmpty { plan.notCarried.append((item.record, values.unknown)) }
            func carry(_ song: inout Song) {
                BeetsMapping.apply(values, to: &song)
                if let cover = item.cover, song.art != cover { song.edit(.art, to: .string(cover)) }
            }
            if let id = match(item, in: basis, claimed: claimed) {
                claimed.insert(id)
                var song = working[id] ?? basis[id]!
                // A song whose file was missing is found again at beets' path.
                if let f = item.facts, song.missing { song.merge(fileFacts: f) }
                carry(&song)
                if working[id] == nil { order.append(id) }
                working[id] = song
            } else if let f = item.facts {
                var song = f.song(id: SongID(ids.next()), added: values.added ?? now)
                carry(&song)
                added.append(song)
            } else {
                plan.unmatched.append(item.record)
            }
        }
        for id in order {
            let p = basis[id]!.patch(to: working[id]!)
            if p.isEmpty { plan.summary.unchanged += 1 } else {
                plan.assertions.append(.updateSong(id, p))
                plan.summary.updated += 1
            }
        }
        plan.assertions += added.map(Assertion.addSong)
        plan.summary.added = added.count
        return plan
    }

    /// The song an item belongs to: the one at its path (a present one first), else, for a
    /// file that was read, one with its audio (a missing one first: it moved there).
    static func match(_ item: Item, in basis: DataBasis, claimed: Set<SongID>) -> SongID? {
        if let ids = basis.paths[PathKey(item.record.path)] {
            let songs = ids.compactMap { basis[$0] }.sorted { ($0.missing ? 1 : 0, $0.id) < ($1.missing ? 1 : 0, $1.id) }
            if let s = songs.first { return s.id }
        }
        guard let fp = item.facts?.fingerprint, let ids = basis.fingerprints[fp] else { return nil }
        let songs = ids.compactMap { basis[$0] }.filter { !claimed.contains($0.id) }
            .sorted { ($0.missing ? 0 : 1, $0.id) < ($1.missing ? 0 : 1, $1.id) }
        return songs.first?.id
    }
}
