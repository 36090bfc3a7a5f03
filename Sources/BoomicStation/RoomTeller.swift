import BoomicCore
import BoomicPlayback
import Synchronization

/// The one place a room's changes are told, in order: a front's commands and the engine's own
/// events both come here, and each change is told once, by whichever comes first.
///
/// What was told is kept as a status; each arrival compares the engine's newest status with it,
/// tells the difference and keeps the newest. A command that starts a song and the engine's
/// `started` for that song see the same difference: the first tells it, the second finds
/// nothing new. Both are taken under one lock, so the changes are told in the order the
/// statuses were read, and a command's change is told before its answer goes out.
final class RoomTeller: Sendable {
    private let told: Mutex<PlaybackStatus>
    private let status: @Sendable () -> PlaybackStatus
    private let tell: @Sendable (RoomChange) -> Void

    /// - Parameters:
    ///   - status: the engine's newest status.
    ///   - tell: called under the teller's lock, in order; it must not call back into the room.
    init(status: @escaping @Sendable () -> PlaybackStatus, tell: @escaping @Sendable (RoomChange) -> Void) {
        self.status = status
        self.tell = tell
        told = Mutex(status())
    }

    /// A front's commands were carried out.
    func commanded(_ commands: [PlaybackCommand]) {
        var forced: RoomChange = []
        for command in commands {
            switch command {
            // A client refetches the queue on a `clear`, also of an empty queue.
            case .queue(.clear): forced.insert(.queue)
            // A seek moves the place in the song, which no status field compared tells.
            case .seek, .seekBy: forced.insert(.player)
            default: break
            }
        }
        emit(forced)
    }

    /// The engine reported `event`.
    func reported(_ event: PlaybackEvent) {
        if case .failed = event { emit(.failure) } else { emit([]) }
    }

    private func emit(_ forced: RoomChange) {
        told.withLock { told in
            let now = status()
            let change = Self.difference(from: told, to: now).union(forced)
            told = now
            if !change.isEmpty { tell(change) }
        }
    }

    /// What a front is told when the room went from `before` to `after`.
    static func difference(from before: PlaybackStatus, to after: PlaybackStatus) -> RoomChange {
        var change: RoomChange = []
        // The queue's version also moves with its state and options; its entries are what a
        // client refetches.
        if after.queue.entries != before.queue.entries { change.insert(.queue) }
        // The state, or the song while not stopped (a stopped queue's current entry moving with
        // a `delete` is no change of the player); `starts` tells a song begun again (`repeat one`).
        let stopped = before.queue.state == .stopped && after.queue.state == .stopped
        if after.queue.state != before.queue.state
            || !stopped && (after.entry != before.entry || after.queue.current != before.queue.current
                            || after.queue.starts != before.queue.starts) {
            change.insert(.player)
        }
        if after.queue.isRandom != before.queue.isRandom || after.queue.repeatMode != before.queue.repeatMode
            || after.queue.single != before.queue.single || after.queue.consume != before.queue.consume
            || after.sound.replayGain != before.sound.replayGain {
            change.insert(.options)
        }
        if after.sound.volume != before.sound.volume { change.insert(.volume) }
        return change
    }
}
