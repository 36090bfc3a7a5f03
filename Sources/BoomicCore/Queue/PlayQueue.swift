/// The play queue: what the player plays, in what order, and what it has played.
///
/// A pure value, changed only by `applying(_:)` (a `QueueCommand`), so that the engine of
/// `boomic play` and the MPD front drive the same rules and the rules are tested as laws without
/// audio. It has no clock (`previous` is told how far into the song the player is) and no
/// randomness of its own (`QueueRandom`, seeded from outside, travels inside the value).
///
/// It keeps apart, as MPD's queue does, three things about an entry: its **position** (its index
/// in `entries`, the order the user sees and edits), its **id** (`EntryID`, stable for the
/// entry's life and never reused, so the same song can be queued twice as two entries) and its
/// place in the **play order** (`playOrder`: the queue's order, or with `random` on the order of
/// the current round). `version` moves on every change, and each entry remembers the version at
/// which it was added, moved or re-prioritised, which is what MPD's `plchanges` asks for.
///
/// Played entries are never forgotten: `history` lists every entry that started playing, in the
/// order it did, with its song, even after the entry left the queue (`consume`, `remove`,
/// `clear`).
///
/// The saved form (`Codable`, for `--resume`) is documented in `Documentation/playback.md`,
/// "The queue"; decoding checks the value's invariants and refuses a broken one.
public struct PlayQueue: Equatable, Sendable {
    /// An entry's identity for its life in this queue: MPD's song id. Counted up from 1, never
    /// reused, so a client holding an old id never reaches another entry by it.
    public struct EntryID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(_ rawValue: Int) { self.rawValue = rawValue }
        public static func < (a: EntryID, b: EntryID) -> Bool { a.rawValue < b.rawValue }
        public var description: String { String(rawValue) }
        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int.self) }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(rawValue)
        }
    }

    /// One place in the queue: a song, queued once.
    public struct Entry: Equatable, Sendable, Codable {
        public let id: EntryID
        public let song: SongID
        /// MPD's `prio` (0–255): with `random` on, entries of higher priority play first.
        public internal(set) var priority: UInt8
        /// The queue's `version` when this entry was added, last moved (its position changed) or
        /// given another priority: MPD's `plchanges V` lists the entries whose version is above V.
        public internal(set) var version: UInt64
        /// The part of the song's file this entry plays (MPD's `rangeid`); nil: the whole song.
        public internal(set) var range: PlayRange?
    }

    /// An entry that started playing, as `history` keeps it: the song too, since the entry may
    /// have left the queue since.
    public struct Played: Equatable, Sendable, Codable {
        public let entry: EntryID
        public let song: SongID
    }

    public enum State: String, Equatable, Sendable, Codable {
        case stopped, playing, paused
    }

    public enum Repeat: String, Equatable, Sendable, Codable, CaseIterable {
        /// Play the play order once and stop.
        case off
        /// Start again at the end (with `random`, a new round in a new order).
        case all
        /// Play the current entry again when it ends (a skip still moves on).
        case one
    }

    /// MPD's `single`: stop after the current entry (with `repeat`, play it again instead);
    /// `oneshot` does so once and turns itself off.
    public enum Single: String, Equatable, Sendable, Codable, CaseIterable {
        case off, on, oneshot
    }

    /// The queue's order: what the user sees, moves and numbers.
    public internal(set) var entries: [Entry] = []
    /// The play order of the current round when `random` is on (a permutation of the entries'
    /// ids); nil when it is off, since the play order is then the queue's order.
    public internal(set) var randomOrder: [EntryID]?
    /// The entry playing, paused, or where `play` starts when stopped; nil when there is none.
    public internal(set) var current: EntryID?
    public internal(set) var state: State = .stopped
    /// Counts the times an entry was (re)started from its beginning: the engine starts decoding
    /// afresh whenever it moves, also when the entry stays the same (`repeat one`, `previous`
    /// after 3 s), which the current entry alone cannot tell it.
    public internal(set) var starts: Int = 0
    /// Every entry that started playing, oldest first; an entry starting again right after
    /// itself (`repeat one`, a restart) is not listed twice in a row.
    public internal(set) var history: [Played] = []
    public internal(set) var repeatMode: Repeat = .off
    public internal(set) var single: Single = .off
    /// Remove each entry once it is played or skipped.
    public internal(set) var consume: Bool = false
    /// Moves on every change of the value, and only then.
    public internal(set) var version: UInt64 = 0
    /// The id the next added entry gets.
    public internal(set) var nextID: Int = 1
    public internal(set) var random: QueueRandom

    /// An empty queue whose `random` and `shuffle` draw from `seed`.
    public init(seed: UInt64) { random = QueueRandom(seed: seed) }

    /// MPD's `random`: whether the play order is a random round rather than the queue's order.
    public var isRandom: Bool { randomOrder != nil }

    /// The order entries play in: the queue's, or the random round's.
    public var playOrder: [EntryID] { randomOrder ?? entries.map(\.id) }

    /// The position of an entry in the queue.
    public func position(of id: EntryID) -> Int? { entries.firstIndex { $0.id == id } }

    public func entry(_ id: EntryID) -> Entry? { position(of: id).map { entries[$0] } }

    /// The song of the current entry.
    public var currentSong: SongID? { current.flatMap(entry)?.song }

    /// The entries changed since `version` (added, moved or re-prioritised), in queue order:
    /// MPD's `plchanges`. Entries removed since are not listed; MPD clients learn of them from
    /// the queue's length.
    public func changes(since version: UInt64) -> [Entry] { entries.filter { $0.version > version } }

    /// The entry that plays after the current one if it ends now: what a "next" display shows
    /// and what the engine opens early for a gapless join. Worked out by playing the end of
    /// the song on a copy, so it is never a guess: with `random` at the end of a round it is
    /// the first of the round that would be drawn. Nil when playback would stop.
    public var upNext: EntryID? {
        guard current != nil else { return nil }
        var playing = self
        playing.state = .playing
        let after = playing.applying(.finished)
        return after.state == .playing ? after.current : nil
    }

    /// The entry MPD's `status` names as `nextsong`: the next in the play order whether or not
    /// `single` stops after the current one (a client's "next" still goes there); with `single`
    /// and `repeat`, the current one, which plays again (MPD 0.23 says so with `consume` too).
    public var nextInOrder: EntryID? {
        guard let c = current else { return nil }
        var q = self
        q.state = .playing
        if q.single != .off {
            if q.repeatMode != .off { return c }
            q.single = .off
        }
        let after = q.applying(.finished)
        return after.state == .playing ? after.current : nil
    }
}
