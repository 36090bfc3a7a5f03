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

    public init() {}

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
        var waiting: (mask: Set<Subsystem>, tell: @Sendable (Set<Subsystem>) -> Void)?
    }
    private let state = Mutex(State())

    init(id: Int) { self.id = id }

    /// The room (partition) the connection is in.
    public var room: String {
        get { state.withLock(\.room) }
        set { state.withLock { $0.room = newValue } }
    }

    func post(_ changed: Set<Subsystem>) {
        let told: (@Sendable (Set<Subsystem>) -> Void, Set<Subsystem>)? = state.withLock { s in
            s.pending.formUnion(changed)
            guard let w = s.waiting else { return nil }
            let due = s.pending.intersection(w.mask)
            guard !due.isEmpty else { return nil }
            s.pending.subtract(due)
            s.waiting = nil
            return (w.tell, due)
        }
        if let (tell, due) = told { tell(due) }
    }

    /// Starts waiting for `mask`: what is already pending is told at once (then the wait is
    /// over), else `tell` is called once when something in `mask` changes.
    public func wait(for mask: Set<Subsystem>, tell: @escaping @Sendable (Set<Subsystem>) -> Void) {
        let due: Set<Subsystem>? = state.withLock { s in
            let due = s.pending.intersection(mask)
            if due.isEmpty {
                s.waiting = (mask, tell)
                return nil
            }
            s.pending.subtract(due)
            return due
        }
        if let due { tell(due) }
    }

    /// Ends a wait without news (`noidle`); true if the client was still waiting.
    public func cancelWait() -> Bool {
        state.withLock { s in
            defer { s.waiting = nil }
            return s.waiting != nil
        }
    }

    public var isWaiting: Bool { state.withLock { $0.waiting != nil } }
}
