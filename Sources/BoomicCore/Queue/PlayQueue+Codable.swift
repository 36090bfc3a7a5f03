import Foundation

/// The saved form (for `--resume`; Documentation/playback.md, "The queue"): one object with a
/// `format` number, so that a later Boomic can read an older file or refuse it by name.
/// Decoding checks every invariant the commands keep, so a damaged or hand-edited state file is
/// a decoding error, never a queue that traps later.
extension PlayQueue: Codable {
    /// The version of the saved form this build writes and reads.
    public static let savedFormat = 1

    private enum CodingKeys: String, CodingKey {
        case format, version, nextID = "next_id", entries, current, state, starts, history
        case repeatMode = "repeat", single, consume, randomOrder = "random_order", random
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.savedFormat, forKey: .format)
        try c.encode(version, forKey: .version)
        try c.encode(nextID, forKey: .nextID)
        try c.encode(entries, forKey: .entries)
        try c.encodeIfPresent(current, forKey: .current)
        try c.encode(state, forKey: .state)
        try c.encode(starts, forKey: .starts)
        try c.encode(history, forKey: .history)
        try c.encode(repeatMode, forKey: .repeatMode)
        try c.encode(single, forKey: .single)
        try c.encode(consume, forKey: .consume)
        try c.encodeIfPresent(randomOrder, forKey: .randomOrder)
        try c.encode(random, forKey: .random)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let format = try c.decode(Int.self, forKey: .format)
        guard format == Self.savedFormat else {
            throw DecodingError.dataCorruptedError(forKey: .format, in: c,
                debugDescription: "saved queue format \(format); this Boomic reads format \(Self.savedFormat)")
        }
        random = try c.decode(QueueRandom.self, forKey: .random)
        version = try c.decode(UInt64.self, forKey: .version)
        nextID = try c.decode(Int.self, forKey: .nextID)
        entries = try c.decode([Entry].self, forKey: .entries)
        current = try c.decodeIfPresent(EntryID.self, forKey: .current)
        state = try c.decode(State.self, forKey: .state)
        starts = try c.decode(Int.self, forKey: .starts)
        history = try c.decode([Played].self, forKey: .history)
        repeatMode = try c.decode(Repeat.self, forKey: .repeatMode)
        single = try c.decode(Single.self, forKey: .single)
        consume = try c.decode(Bool.self, forKey: .consume)
        randomOrder = try c.decodeIfPresent([EntryID].self, forKey: .randomOrder)
        if let broken = brokenInvariant {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "saved queue: \(broken)"))
        }
    }

    /// What is wrong with the value, if anything: the invariants every command keeps.
    public var brokenInvariant: String? {
        let ids = entries.map(\.id)
        let idSet = Set(ids)
        if idSet.count != ids.count { return "an entry id appears twice" }
        if let bad = ids.first(where: { $0.rawValue < 1 || $0.rawValue >= nextID }) {
            return "entry id \(bad) is not below next_id \(nextID)"
        }
        if let order = randomOrder, order.count != ids.count || Set(order) != idSet {
            return "random_order is not an order of the entries"
        }
        if let current, !idSet.contains(current) { return "the current entry \(current) is not in the queue" }
        if current == nil, state != .stopped { return "\(state.rawValue) with no current entry" }
        if entries.contains(where: { $0.version > version }) { return "an entry is newer than the queue" }
        if history.contains(where: { $0.entry.rawValue >= nextID }) { return "history names an entry never added" }
        return nil
    }
}
