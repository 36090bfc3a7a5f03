import BoomicAudio
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
    /// Which output a front switched, and how (`outputSwitched`): fronts tell a switch by the
    /// kind of output (MPD tells `mixer` only for one with a mixer).
    public var switched: OutputSwitch?

    public init(room: String?, what: RoomChange, switched: OutputSwitch? = nil) {
        self.room = room
        self.what = what
        self.switched = switched
    }
}

/// An output a front switched on or off.
public struct OutputSwitch: Sendable, Equatable {
    public var spec: SinkSpec
    public var on: Bool
    /// By a toggle (MPD's `toggleoutput`), which MPD tells otherwise than a plain switch.
    public var toggled: Bool

    public init(spec: SinkSpec, on: Bool, toggled: Bool) {
        self.spec = spec
        self.on = on
        self.toggled = toggled
    }
}
