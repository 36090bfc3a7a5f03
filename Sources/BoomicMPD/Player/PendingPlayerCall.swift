import BoomicPlayback
import BoomicStation
import Foundation
import Synchronization

/// A command's call to its room's player that the player's thread has not taken within
/// `ServerPlayer.loopPatience` (a decoder's open stalled on a sleeping USB disk or a network
/// mount holds that thread, and every call queued behind it).
///
/// An engine call has three outcomes: carried out, dropped because the player quit (a
/// `moveoutput` replaced it: the command is then carried out by the new player), or still
/// pending. A pending call stays where it is, in the engine's inbox, exactly once: its client's
/// connection waits for it off the event loop (`ServerPlayer.settle`) and answers when it is
/// carried out, however long that takes. Taking a wait that timed out for a quit, and sending the
/// command again, queued it once per timeout.
final class PendingPlayerCall: Sendable {
    let player: ServerPlayer
    let call: EngineCall
    /// The status before the call, the commands, and what follows them (`ServerPlayer.perform`).
    let before: PlaybackStatus
    let commands: [PlaybackCommand]
    let more: @Sendable (PlaybackStatus) -> [PlaybackCommand]
    /// The command's answer from the status after the call (`addid`'s `Id`); none: `OK` alone.
    private let answerer = Mutex<(@Sendable (PlaybackStatus) throws(MPDError) -> MPDResponse)?>(nil)

    init(player: ServerPlayer, call: EngineCall, before: PlaybackStatus, commands: [PlaybackCommand],
         more: @escaping @Sendable (PlaybackStatus) -> [PlaybackCommand]) {
        self.player = player
        self.call = call
        self.before = before
        self.commands = commands
        self.more = more
    }

    /// Set by a command whose answer is made from the status after its call.
    func answer(with make: @escaping @Sendable (PlaybackStatus) throws(MPDError) -> MPDResponse) {
        answerer.withLock { $0 = make }
    }

    /// How the wait ended.
    enum Outcome: Sendable {
        /// Carried out: the command's answer (empty for a bare `OK`).
        case answered(MPDResponse)
        /// Carried out, and the answer is an error.
        case failed(MPDError)
        /// Dropped by the player's quit: carried out by no player, so the command runs again.
        case dropped
    }

    /// Waits until the player's thread takes the call (blocking: off the event loop).
    func settle() -> Outcome {
        guard let after = player.settle(self) else { return .dropped }
        guard let make = answerer.withLock({ $0 }) else { return .answered(MPDResponse()) }
        do throws(MPDError) { return .answered(try make(after)) } catch { return .failed(error) }
    }
}
