import BoomicPlayback
import BoomicStation
import Foundation
import Synchronization

/// A command's call to its room's player that the player's thread has not taken within
/// `RoomPlayer.patience` (`PendingCall`), with the answer the command makes once it is carried
/// out: its client's connection waits for it off the event loop and answers then, however long
/// that takes. The call stays in the engine's inbox exactly once; it is never sent again.
final class PendingPlayerCall: Sendable {
    let call: PendingCall
    /// The command's answer from the status after the call (`addid`'s `Id`); none: `OK` alone.
    private let answerer = Mutex<(@Sendable (PlaybackStatus) throws(MPDError) -> MPDResponse)?>(nil)

    init(_ call: PendingCall) { self.call = call }

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
        guard let after = call.settle() else { return .dropped }
        guard let make = answerer.withLock({ $0 }) else { return .answered(MPDResponse()) }
        do throws(MPDError) { return .answered(try make(after)) } catch { return .failed(error) }
    }
}
