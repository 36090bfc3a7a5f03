/// What changed in a room, as the station tells its fronts: each front names it in its own
/// terms (MPD's idle subsystems).
public struct RoomChange: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The queue's entries: added, removed, moved, re-prioritised, or cleared.
    public static let queue = RoomChange(rawValue: 1 << 0)
    /// The player's state (play, pause, stop), its song, or its place in the song (a seek).
    public static let player = RoomChange(rawValue: 1 << 1)
    /// Random, repeat, single, consume, ReplayGain.
    public static let options = RoomChange(rawValue: 1 << 2)
    public static let volume = RoomChange(rawValue: 1 << 3)
    /// An output moved to another room, or failed, or hung and was dropped.
    public static let outputs = RoomChange(rawValue: 1 << 4)
    /// An output was switched on or off by a front.
    public static let outputSwitched = RoomChange(rawValue: 1 << 7)
    /// The room's output failed and playback stopped.
    public static let failure = RoomChange(rawValue: 1 << 5)
    /// A room was made or removed.
    public static let rooms = RoomChange(rawValue: 1 << 6)
}

/// One change the station tells, in the order it happened.
public struct StationChange: Sendable, Equatable {
    /// The room it happened in; nil for the station's own (rooms, outputs), which every room hears.
    public var room: String?
    public var what: RoomChange

    public init(room: String?, what: RoomChange) {
        self.room = room
        self.what = what
    }
}
