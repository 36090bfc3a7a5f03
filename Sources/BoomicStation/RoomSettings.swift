import BoomicCore
import BoomicPlayback

/// How a room plays, the same for every room of a station.
public struct RoomSettings: Sendable {
    public var sound: SoundSettings
    /// Paces unpaced outputs (null, wav:) by the clock, as a sound card paces itself.
    public var realtime: Bool
    /// Records plays in the library (not with `--no-record`, nor of a past basis).
    public var record: Bool
    /// The front was given a speed (`--speed`): an audiobook plays at it, not at the speed its
    /// bookmark was left at.
    public var speedGiven: Bool
    /// The volume a front sets is kept in the state file and comes back with the room (MPD's
    /// software volume); otherwise the volume is the front's configuration's.
    public var keepsVolume: Bool
    /// The room says its songs' warnings and its output's failure through `warn`; a front that
    /// shows the events itself (`boomic play`'s terminal) says them its own way.
    public var warnsEvents: Bool

    public init(sound: SoundSettings, realtime: Bool, record: Bool, speedGiven: Bool = false,
                keepsVolume: Bool, warnsEvents: Bool) {
        self.sound = sound
        self.realtime = realtime
        self.record = record
        self.speedGiven = speedGiven
        self.keepsVolume = keepsVolume
        self.warnsEvents = warnsEvents
    }
}

/// What a room plays when its player starts.
public enum RoomStart: Sendable {
    /// The saved state as it was left: playing if it played, paused at its place if paused (as
    /// MPD restores it), else stopped. A server's rooms start so.
    case asSaved
    /// The saved queue, played from the saved place (`boomic play --resume`).
    case resumed
    /// This queue, played from its start.
    case queue(PlayQueue)
}
