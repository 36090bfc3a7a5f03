import BoomicTestSupport
import Foundation
@testable import BoomicCore

/// A log kept the way the product keeps it, in memory: the transactions by sequence number, the
/// basis after each, and the undo stack fed with every transaction.
///
/// Every change goes through `commit`, which applies the transaction function; undo, redo and
/// rollback are generated as the CLI generates them (a diff from HEAD to an earlier basis).
struct History: Sendable {
    let seed: UInt64
    /// `transactions[i]` has sequence number `i + 1`.
    private(set) var transactions: [Transaction] = []
    /// `bases[seq]` is the library after transaction `seq`; `bases[0]` is the empty library.
    private(set) var bases: [DataBasis] = [.empty]
    private(set) var stack = UndoStack()
    private var transactionIDs: CountingIDSource

    init(seed: UInt64) {
        self.seed = seed
        transactionIDs = CountingIDSource(seed: 0x7A00_0000_0000 | seed)
    }

    var head: DataBasis { bases[bases.count - 1] }
    var seq: Int { transactions.count }

    /// The sequence number of a transaction in this log.
    func seq(of id: UUID) -> Int? { transactions.firstIndex { $0.id == id }.map { $0 + 1 } }

    /// Commits assertions generated on `head`.
    ///
    /// As in the product, a command that changes nothing commits nothing. Undo and redo commit
    /// even when HEAD already looks like their target, because the undo stack is rebuilt from the
    /// log and an undo that left no trace could never be redone.
    @discardableResult
    mutating func commit(_ assertions: [Assertion], kind: Transaction.Kind, label: String,
                         undoes: [UUID]? = nil, redoes: UUID? = nil) -> Bool {
        if assertions.isEmpty && kind != .undo && kind != .redo { return false }
        let t = Transaction(
            id: transactionIDs.next(), parent: transactions.last?.id,
            timestamp: 1_800_000_000 + Double(seq) * 61.5, kind: kind, label: label,
            provenance: .init(command: "boomic \(label)", message: seq % 3 == 0 ? "step \(seq)" : nil, version: "test"),
            assertions: assertions, undoes: undoes, redoes: redoes)
        transactions.append(t)
        bases.append(head.applying(t))
        stack.record(seq: seq, transaction: t)
        return true
    }

    /// `boomic undo n --plays`: back to the state before the oldest of the last `n` steps, play
    /// fields too (PlayTests checks undo without `--plays`).
    @discardableResult
    mutating func undo(_ n: Int = 1) -> Bool {
        guard let plan = stack.undoPlan(count: n) else { return false }
        return commit(EditGeneration.rollback(from: head, to: bases[plan.targetSeq]), kind: .undo,
                      label: "undo \(n)", undoes: plan.steps.map(\.id))
    }

    /// `boomic redo --plays`: forward to the state right after the last undone step.
    @discardableResult
    mutating func redo() -> Bool {
        guard let plan = stack.redoPlan() else { return false }
        return commit(EditGeneration.rollback(from: head, to: bases[plan.targetSeq]), kind: .redo,
                      label: "redo", redoes: plan.step.id)
    }

    /// `boomic rollback k --plays`.
    @discardableResult
    mutating func rollback(to k: Int) -> Bool {
        commit(EditGeneration.rollback(from: head, to: bases[k]), kind: .rollback, label: "rollback \(k)")
    }

    /// The log as it was after transaction `s`, with its undo stack rebuilt from the log alone.
    /// New transactions get ids the dropped ones never had.
    func prefix(_ s: Int) -> History {
        var h = self
        h.transactions.removeLast(seq - s)
        h.bases.removeLast(seq - s)
        h.stack = UndoStack()
        for (i, t) in h.transactions.enumerated() { h.stack.record(seq: i + 1, transaction: t) }
        return h
    }

    /// Folds transactions from the empty library: `[db(0), db(1), …]`.
    static func fold(_ ts: [Transaction]) -> [DataBasis] {
        var out: [DataBasis] = [.empty]
        for t in ts { out.append(out[out.count - 1].applying(t)) }
        return out
    }
}

extension Seeds {
    /// The seeds the random laws run on (`BOOMIC_SEED=<n>` runs that one alone).
    static let base: UInt64 = 0xB00_1C
    static let count = 200
    static var all: [UInt64] { list(count, from: base) }
}

/// The random histories every law runs on. Generated once and shared: generation is pure, so
/// sharing them changes nothing but the running time.
enum Histories {
    static let all: [History] = Seeds.all.map { HistoryGenerator.history(seed: $0) }
}
