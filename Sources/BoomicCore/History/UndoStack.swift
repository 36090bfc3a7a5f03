import Foundation

/// Which states `undo` and `redo` go to, worked out from the history alone.
///
/// Undo and redo are rollbacks (history only grows), so the stacks are not stored anywhere:
/// replaying the kinds of the log rebuilds them. A normal transaction is pushed on the done stack
/// and clears the redo stack, as in every editor; an undo moves entries from done to redo;
/// a redo moves one back. Plays and writes are not undo steps (undoing an edit must not be
/// blocked by having listened to a song, or by having written the edit into the files).
public struct UndoStack: Equatable, Sendable {
    /// A transaction that can be undone or redone: its sequence number and id.
    public struct Step: Equatable, Sendable {
        public var seq: Int
        public var id: UUID
        public init(seq: Int, id: UUID) { self.seq = seq; self.id = id }
    }

    /// Oldest first; the last is what `undo` takes back next.
    public private(set) var done: [Step] = []
    /// Oldest first; the last is what `redo` brings back next.
    public private(set) var undone: [Step] = []
    /// The last seq fed: a plan made from this stack stands while the log ends there.
    public private(set) var readThrough = 0

    public init() {}

    /// Feeds one transaction of the log, in order.
    public mutating func record(seq: Int, transaction t: Transaction) {
        readThrough = max(readThrough, seq)
        switch t.kind {
        case .undo:
            let ids = Set(t.undoes ?? [])
            while let last = done.last, ids.contains(last.id) { undone.append(done.removeLast()) }
        case .redo:
            if let last = undone.last, last.id == t.redoes { done.append(undone.removeLast()) }
        case .play, .write:
            // A write only records the files' new stamps: taking it back would not take the
            // tags out of the files, so `undo` after `modify --write` undoes the modify.
            break
        default:
            done.append(Step(seq: seq, id: t.id))
            undone.removeAll()
        }
    }

    /// The steps `undo n` takes back (newest first) and the state it returns to: the state just
    /// before the oldest of them, i.e. `basis(at: seq - 1)`.
    public func undoPlan(count n: Int) -> (steps: [Step], targetSeq: Int)? {
        guard n > 0, done.count >= n else { return nil }
        let steps = Array(done.suffix(n).reversed())
        return (steps, steps.last!.seq - 1)
    }

    /// The step `redo` brings back and the state it returns to: the state right after it.
    public func redoPlan() -> (step: Step, targetSeq: Int)? {
        guard let s = undone.last else { return nil }
        return (s, s.seq)
    }
}
