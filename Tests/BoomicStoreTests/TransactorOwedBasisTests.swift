import BoomicTestSupport
import Foundation
import Synchronization
import Testing
@testable import BoomicStore

/// A transactor that leaves each commit's basis to its first reader (`appliesCommitsWhenRead`,
/// the CLI's) holds exactly the states an eager one does, and applies each commit at most once.
@Suite struct TransactorOwedBasisTests {
    /// On random histories of commits, generations and other processes' commits, with reads at
    /// random moments: the lazy store's head and basis equal the eager store's, after every step,
    /// and both equal a replay of the log.
    @Test(arguments: Seeds.list(60, from: 1))
    func lazyEqualsEager(seed: UInt64) throws {
        try withTemporaryDirectory { dir in
            var rng = SplitMix64(seed: seed)
            let lazy = try openToy(dir + "/lazy.sqlite", checkpointEvery: 7, appliesCommitsWhenRead: true)
            let eager = try openToy(dir + "/eager.sqlite", checkpointEvery: 7)
            // Another process on each file, committing the same transactions behind their backs.
            let lazyOther = try openToy(dir + "/lazy.sqlite", checkpointEvery: 7)
            let eagerOther = try openToy(dir + "/eager.sqlite", checkpointEvery: 7)
            for n in 0..<Int.random(in: 5...40, using: &rng) {
                let op = rng.op(at: Double(n))
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    try lazyOther.commit(op)
                    try eagerOther.commit(op)
                case 1:
                    // Computed from the basis: a stale or wrongly applied basis would show.
                    let derive: (Counters, Int) -> Op? = { basis, head in
                        Op(id: op.id, timestamp: op.timestamp, changes: [.set("sum", basis.values.values.reduce(head, +))])
                    }
                    #expect(try lazy.generate(derive)?.seq == eager.generate(derive)?.seq, "seed \(seed), step \(n)")
                default:
                    #expect(try lazy.commit(op) == eager.commit(op), "seed \(seed), step \(n)")
                }
                if Bool.random(using: &rng) {
                    #expect(lazy.head == eager.head, "seed \(seed), step \(n)")
                    #expect(lazy.basis == eager.basis, "seed \(seed), step \(n)")
                }
            }
            try lazy.refresh()
            try eager.refresh()
            #expect(lazy.state.head == eager.state.head, "seed \(seed)")
            #expect(lazy.state.basis == eager.state.basis, "seed \(seed)")
            #expect(try openToy(dir + "/lazy.sqlite").basis == lazy.basis, "seed \(seed): replay")
        }
    }

    /// A commit is not applied until its basis is read; readers racing for it apply it once.
    @Test func aCommitIsAppliedOnceByItsFirstReader() throws {
        try withTemporaryDirectory { dir in
            let applied = Atomic<Int>(0)
            let store = try openToy(dir + "/library.sqlite", appliesCommitsWhenRead: true) { op, basis in
                applied.add(1, ordering: .relaxed)
                return applyOp(op, basis)
            }
            try store.commit(Op(id: UUID(), timestamp: 0, changes: [.set("x", 1)]))
            try store.commit(Op(id: UUID(), timestamp: 1, changes: [.add("x", 2)]))
            // The second commit's generation read the first one's basis; its own is owed.
            #expect(applied.load(ordering: .relaxed) == 1)
            #expect(store.head == 2)
            #expect(applied.load(ordering: .relaxed) == 1)
            let seen = Mutex<[Counters]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let b = store.basis
                seen.withLock { $0.append(b) }
            }
            #expect(applied.load(ordering: .relaxed) == 2)
            #expect(seen.withLock { $0 } == Array(repeating: Counters(values: ["x": 3]), count: 8))
        }
    }

    /// The default, a server's: the commit thread applies what it commits before returning.
    @Test func anEagerStoreAppliesOnCommit() throws {
        try withTemporaryDirectory { dir in
            let applied = Atomic<Int>(0)
            let store = try openToy(dir + "/library.sqlite") { op, basis in
                applied.add(1, ordering: .relaxed)
                return applyOp(op, basis)
            }
            try store.commit(Op(id: UUID(), timestamp: 0, changes: [.set("x", 1)]))
            #expect(applied.load(ordering: .relaxed) == 1)
        }
    }
}
