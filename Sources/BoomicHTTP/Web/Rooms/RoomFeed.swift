import BoomicStation
import Synchronization

/// The station's change feed (`Station.subscribe`, the feed MPD's `idle` is told from) as the
/// rooms page's event streams read it: one subscription per front, made when the first stream
/// opens, telling each open stream (`RoomWatcher`) which rooms changed.
///
/// Telling a stream never waits for it: the station's thread marks the rooms in the stream's
/// pending set and wakes its writer (`RoomWatcher.note`), whatever the browser reads. A slow
/// browser holds up only its own stream, which sends the rooms as they are when it writes next.
public final class RoomFeed: Sendable {
    private struct State {
        var watchers: [Int: RoomWatcher] = [:]
        var next = 0
        /// The station subscribed to (one per front; the station has no unsubscribe).
        var station: ObjectIdentifier?
    }

    private let state = Mutex(State())

    public init() {}

    /// A new stream's watcher for `session`, subscribing to `station`'s feed on first use.
    func watch(_ station: Station, session: String) -> RoomWatcher {
        let subscribe = state.withLock { state -> Bool in
            defer { state.station = ObjectIdentifier(station) }
            return state.station == nil
        }
        if subscribe { station.subscribe { [weak self] change in self?.tell(change) } }
        return state.withLock { state in
            let watcher = RoomWatcher(id: state.next, session: session)
            state.watchers[state.next] = watcher
            state.next += 1
            return watcher
        }
    }

    /// Forgets a stream that ended.
    func remove(_ watcher: RoomWatcher) {
        _ = state.withLock { $0.watchers.removeValue(forKey: watcher.id) }
    }

    /// Ends the streams of a session (its logout): each closes at once, cleanly.
    public func end(session: String) {
        for watcher in state.withLock({ Array($0.watchers.values) }) where watcher.session == session { watcher.close() }
    }

    /// Ends every stream (the server stops).
    public func endAll() {
        for watcher in state.withLock({ Array($0.watchers.values) }) { watcher.close() }
    }

    /// How many streams are open.
    public var streams: Int { state.withLock { $0.watchers.count } }

    /// Called on the thread that made the change: marks it in every stream, waiting for none.
    func tell(_ change: StationChange) {
        for watcher in state.withLock({ Array($0.watchers.values) }) { watcher.note(change) }
    }
}
