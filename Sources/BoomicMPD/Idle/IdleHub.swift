import Synchronization

/// MPD's subsystems, as `idle` names them.
public enum Subsystem: String, CaseIterable, Sendable {
    case database, update
    case storedPlaylist = "stored_playlist"
    case playlist, player, mixer, output, options, partition, sticker, subscription, message
}

/// Who waits for what: every connection has a slot that gathers the subsystems that changed
/// since it last asked (MPD keeps them per client, so a change between two `idle`s is not
/// lost), and, while the client is in `idle`, a waiter to tell.
public final class IdleHub: Sendable {
    private let slots = Mutex<[Int: IdleSlot]>([:])
    private let nextID = Atomic<Int>(0)
    /// Told of every change too: the server's own parts that wake on one (`OutputWatchdog`).
    private let watchers = Mutex<[@Sendable (Set<Subsystem>) -> Void]>([])

    public init() {}

    /// `body` is told every change posted from now on, on the thread that posts it.
    public func watch(_ body: @escaping @Sendable (Set<Subsystem>) -> Void) {
        watchers.withLock { $0.append(body) }
    }

    public func makeSlot() -> IdleSlot {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let slot = IdleSlot(id: id)
        slots.withLock { $0[id] = slot }
        return slot
    }

    public func remove(_ slot: IdleSlot) {
        _ = slots.withLock { $0.removeValue(forKey: slot.id) }
    }

    /// Something changed: every connection hears of it (only those in `room` when one is
    /// named: a room's player, queue and mixer are its own), now if it waits, else at its next
    /// `idle`.
    public func post(_ changed: Set<Subsystem>, room: String? = nil) {
        guard !changed.isEmpty else { return }
        for watcher in watchers.withLock({ $0 }) { watcher(changed) }
        for slot in slots.withLock({ Array($0.values) }) where room == nil || slot.room == room {
            slot.post(changed)
        }
    }

    public var connections: Int { slots.withLock(\.count) }

    /// Whether a connection is in `room`: MPD deletes no partition a client still drives.
    public func isOccupied(_ room: String) -> Bool {
        slots.withLock { Array($0.values) }.contains { $0.room == room }
    }
}

/// One connection's share of the hub.
public final class IdleSlot: Sendable {
    let id: Int
    private struct State {
        var room = "default"
        var pending: Set<Subsystem> = []
        var waiting: (mask: Set<Subsystem>, wake: @Sendable () -> Void)?
        /// The changes that ended the wait, until the connection takes them (`take`,
        /// `endWait`, `over`): set under the same lock that ends the wait, so that however a
        /// change and the client's next request meet, the answer is taken once and the
        /// connection knows, whenever it looks, whether one is due.
        var fired: Set<Subsystem>?
    }
    private let state = Mutex(State())

    init(id: Int) { self.id = id }

    /// The room (partition) the connection is in.
    public var room: String {
        get { state.withLock(\.room) }
        set { state.withLock { $0.room = newValue } }
    }

    func post(_ changed: Set<Subsystem>) {
        let wake: (@Sendable () -> Void)? = state.withLock { s in
            s.pending.formUnion(changed)
            guard let w = s.waiting else { return nil }
            let due = s.pending.intersection(w.mask)
            guard !due.isEmpty else { return nil }
            s.pending.subtract(due)
            s.waiting = nil
            s.fired = due
            return w.wake
        }
        wake?()
    }

    /// What the client had pending gives way to `changed`: its move to another room
    /// (`partition`), where MPD sets a client's idle flags to the new partition's own
    /// subsystems, so that what else was pending (`partition`, `subscription`) is not told.
    func replacePending(with changed: Set<Subsystem>) {
        state.withLock { $0.pending = [] }
        post(changed)
    }

    /// Starts waiting for `mask`. True when something in it changed already: the wait is over
    /// at once, and `take` has what changed. Else `wake` is called once, from the thread that
    /// changed something in `mask`, after which `take` has it.
    public func wait(for mask: Set<Subsystem>, wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { s in
            let due = s.pending.intersection(mask)
            if due.isEmpty {
                s.waiting = (mask, wake)
                return false
            }
            s.pending.subtract(due)
            s.fired = due
            return true
        }
    }

    /// What ended the wait, once; nil when nothing did, or it was taken.
    public func take() -> Set<Subsystem>? {
        state.withLock { s in
            defer { s.fired = nil }
            return s.fired
        }
    }

    /// Ends the wait (`noidle`): what ended it, once; empty when it was still waiting (it ends
    /// now, without news); nil when it had ended and that was taken.
    public func endWait() -> Set<Subsystem>? {
        state.withLock { s in
            if s.waiting != nil {
                s.waiting = nil
                return []
            }
            defer { s.fired = nil }
            return s.fired
        }
    }

    /// Whether the client still waits; if not, what ended the wait, once (nil when taken).
    public func over() -> (waiting: Bool, changed: Set<Subsystem>?) {
        state.withLock { s in
            if s.waiting != nil { return (true, nil) }
            defer { s.fired = nil }
            return (false, s.fired)
        }
    }
}
