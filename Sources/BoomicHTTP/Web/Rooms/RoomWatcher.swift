import BoomicStation
import Synchronization

/// One open event stream's share of the rooms' feed: what changed since its writer last wrote,
/// and a signal that wakes the writer.
///
/// Its buffer is bounded by the number of rooms: a change marks its room (and whether the queue
/// changed) in a set, so changes that arrive while the browser is slow are merged into one, and
/// the writer sends each marked room as it is when it writes. A change of the rooms themselves
/// (one made or removed) marks the whole state, sent again in full. The signal keeps at most
/// one wake-up; neither ever makes the station's thread wait.
final class RoomWatcher: Sendable {
    /// What the writer is to send next.
    struct Pending: Equatable {
        /// The whole state: every room with its queue.
        var all = false
        /// Rooms that changed, each with whether its queue did.
        var rooms: [String: Bool] = [:]
        /// A heartbeat is due.
        var beat = false
        /// The stream is to end (logout, the server stops).
        var closed = false

        var isEmpty: Bool { !all && rooms.isEmpty && !beat && !closed }
    }

    let id: Int
    let session: String
    private let pending = Mutex(Pending())
    let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    init(id: Int, session: String) {
        self.id = id
        self.session = session
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Marks a change of the station and wakes the writer.
    func note(_ change: StationChange) {
        pending.withLock { p in
            if let room = change.room, !change.what.contains(.rooms) {
                p.rooms[room] = (p.rooms[room] ?? false) || change.what.contains(.queue)
            } else {
                p.all = true
            }
        }
        signal.yield()
    }

    /// Marks a heartbeat due.
    func beat() {
        pending.withLock { $0.beat = true }
        signal.yield()
    }

    /// Ends the stream: its writer finishes the response.
    func close() {
        pending.withLock { $0.closed = true }
        signal.yield()
        signal.finish()
    }

    /// What is pending, now cleared.
    func take() -> Pending {
        pending.withLock { p in
            defer { p = Pending(closed: p.closed) }
            return p
        }
    }
}
