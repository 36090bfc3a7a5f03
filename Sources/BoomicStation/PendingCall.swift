import BoomicPlayback

/// A front's call to a room's player that the player's thread has not taken within
/// `RoomPlayer.patience` (a decoder's open stalled on a sleeping USB disk or a network mount
/// holds that thread, and every call queued behind it).
///
/// An engine call has three outcomes: carried out, dropped because the player quit (a move of
/// an output replaced it: the front then gives the command to the new player), or still
/// pending. A pending call stays where it is, in the engine's inbox, exactly once: the front
/// waits for it off its event loop (`settle`) and answers when it is carried out, however long
/// that takes.
public final class PendingCall: Sendable {
    public let player: RoomPlayer
    let call: EngineCall
    let commands: [PlaybackCommand]
    let more: @Sendable (PlaybackStatus) -> [PlaybackCommand]

    init(player: RoomPlayer, call: EngineCall, commands: [PlaybackCommand],
         more: @escaping @Sendable (PlaybackStatus) -> [PlaybackCommand]) {
        self.player = player
        self.call = call
        self.commands = commands
        self.more = more
    }

    /// Waits until the player's thread takes the call (blocking: off any event loop): the
    /// status after it, or nil when the player quit without carrying it out (the front gives
    /// the command to the room's next player).
    public func settle() -> PlaybackStatus? { player.settle(self) }
}
