import BoomicCore
import Foundation

extension LibrarySession {
    /// Rebuilds the undo/redo stacks from the log. Only undo and redo transactions need their
    /// bodies (for what they took back), so the rest is read from the summary columns.
    public func undoStack() throws -> UndoStack {
        var stack = UndoStack()
        for s in try transactor.summaries() {
            let t: Transaction
            if s.kind == Transaction.Kind.undo.rawValue || s.kind == Transaction.Kind.redo.rawValue {
                // Only what it took back: an undo of a big rollback holds thousands of updates,
                // and decoding them all for every undo in the log would make each undo slower than the last.
                let links = try transactor.body(seq: s.seq, as: UndoLinks.self)
                t = Transaction(id: UUID(text: s.id) ?? UUID(), parent: nil, timestamp: s.time,
                                kind: Transaction.Kind(rawValue: s.kind), label: s.label, assertions: [],
                                undoes: links.undoes, redoes: links.redoes)
            } else {
                t = Transaction(id: UUID(text: s.id) ?? UUID(), parent: nil, timestamp: s.time,
                                kind: Transaction.Kind(rawValue: s.kind), label: s.label, assertions: [])
            }
            stack.record(seq: s.seq, transaction: t)
        }
        return stack
    }

    private struct UndoLinks: Decodable, Sendable {
        var undoes: [UUID]?
        var redoes: UUID?
    }
}
