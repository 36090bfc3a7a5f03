import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// `appendAll` (what `import-json` uses): the whole batch or nothing, and checkpoints where
/// one-at-a-time commits would have put them.
@Suite struct TransactorAppendAllTests {
    static func ops(_ n: Int) -> [Op] {
        (1...n).map { Op(id: UUID(), timestamp: Double($0), changes: [.add("x", $0)]) }
    }

    @Test func aBatchEqualsItsCommitsOneByOne() throws {
        try withTemporaryDirectory { dir in
            let ops = Self.ops(120)
            let batch = try openToy(dir + "/a.sqlite", checkpointEvery: 25)
            #expect(try batch.appendAll(ops, expectedHead: 0) == 120)
            let single = try openToy(dir + "/b.sqlite", checkpointEvery: 25)
            for op in ops { try single.commit(op) }
            #expect(batch.basis == single.basis)
            for k in [0, 1, 37, 99, 120] { #expect(try batch.basis(at: k) == single.basis(at: k), "state \(k)") }
            #expect(try batch.checkpointSeqs() == single.checkpointSeqs(), "checkpoints where the policy puts them")
            let reopened = try openToy(dir + "/a.sqlite", checkpointEvery: 25)
            #expect(reopened.basis == single.basis && reopened.head == 120)
        }
    }

    /// More checkpoints due than are kept: the batch writes only those the thinning keeps, and
    /// they are the ones (and weigh what) one-at-a-time commits leave, on random batches.
    @Test(arguments: [(5, 3, 120), (7, 10, 300), (3, 4, 61), (50, 10, 40)])
    func aBatchKeepsTheCheckpointsCommitsOneByOneKeep(every: Int, retained: Int, count: Int) throws {
        try withTemporaryDirectory { dir in
            var rng = SplitMix64(seed: UInt64(every * 1_000 + count))
            let ops = (1...count).map { rng.op(at: Double($0)) }
            let batch = try openToy(dir + "/a.sqlite", checkpointEvery: every, retained: retained)
            try batch.appendAll(ops, expectedHead: 0)
            let single = try openToy(dir + "/b.sqlite", checkpointEvery: every, retained: retained)
            for op in ops { try single.commit(op) }
            #expect(try batch.checkpointSeqs() == single.checkpointSeqs(), "every \(every), retained \(retained)")
            #expect(try batch.checkpointWeights() == single.checkpointWeights())
            for k in [0, count / 3, count / 2, count] { #expect(try batch.basis(at: k) == single.basis(at: k), "state \(k)") }
        }
    }

    /// The library's rules: a size floor and a minimum gap. With the floor out of reach (it
    /// keeps all by size) the minimum gap decides, and the batch leaves exactly what commits one
    /// by one leave.
    @Test(arguments: [(3, 120, 12), (5, 300, 30), (4, 61, 8)])
    func aBatchKeepsWhatCommitsOneByOneKeepUnderAMinimumGap(every: Int, count: Int, minimumGap: Int) throws {
        try withTemporaryDirectory { dir in
            var rng = SplitMix64(seed: UInt64(every * 7_000 + count))
            let ops = (1...count).map { rng.op(at: Double($0)) }
            func open(_ name: String) throws -> ToyStore {
                try openToy(dir + name, checkpointEvery: every, retained: nil, sizeRatio: 2, sizeFloor: 1 << 30, minimumGap: minimumGap)
            }
            let batch = try open("/a.sqlite")
            try batch.appendAll(ops, expectedHead: 0)
            let single = try open("/b.sqlite")
            for op in ops { try single.commit(op) }
            let seqs = try single.checkpointSeqs()
            #expect(seqs.count > 3, "more than the newest and two: \(seqs)")
            let (bs, bw, sw) = (try batch.checkpointSeqs(), try batch.checkpointWeights(), try single.checkpointWeights())
            #expect(bs == seqs && bw == sw, "every \(every), gap \(minimumGap): \(bs) against \(seqs), weights \(bw) against \(sw)")
            for k in [0, count / 3, count / 2, count] { #expect(try batch.basis(at: k) == single.basis(at: k), "state \(k)") }
        }
    }

    /// With a floor that binds, a batch into an empty store plans by the size of its last state
    /// (no checkpoint is stored to take it from): it keeps what the rule allows, not every one
    /// due. Sizes differ by a few bytes between checkpoints, so where they stand may differ
    /// from commits one by one; the rule and the states may not.
    @Test func aBatchIntoAnEmptyStoreKeepsWhatTheFloorAllows() throws {
        try withTemporaryDirectory { dir in
            var rng = SplitMix64(seed: 91)
            let ops = (1...200).map { rng.op(at: Double($0)) }
            let batch = try openToy(dir + "/a.sqlite", checkpointEvery: 2, retained: nil, sizeRatio: 2, sizeFloor: 300)
            let planned = batch.checkpointsPlanned(for: ops)
            #expect(planned.count < 20, "100 are due; taken for a byte each, all would be written: \(planned.count)")
            try batch.appendAll(ops, expectedHead: 0)
            let c = try SQLiteConnection(path: dir + "/a.sqlite")
            let stmt = try c.statement("SELECT length(data) FROM checkpoints ORDER BY seq")
            var sizes: [Int] = []
            while try stmt.step() { sizes.append(stmt.int(0)) }
            stmt.reset()
            let older = sizes.dropLast().reduce(0, +)
            #expect(sizes.count > 3 && sizes.count < 40, "\(sizes)")
            #expect(older <= max(2 * sizes.last!, 300), "\(sizes)")
            let single = try openToy(dir + "/b.sqlite", checkpointEvery: 2, retained: nil, sizeRatio: 2, sizeFloor: 300)
            for op in ops { try single.commit(op) }
            for k in [0, 50, 123, 200] { #expect(try batch.basis(at: k) == single.basis(at: k), "state \(k)") }
        }
    }

    @Test func aBadTransactionInTheBatchCommitsNone() throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite")
            var ops = Self.ops(10)
            ops[7].id = ops[2].id // a repeated id: the log refuses it
            #expect(throws: StoreError.self) { try store.appendAll(ops) }
            #expect(store.head == 0 && store.basis == Counters())
            #expect(try store.logHead() == 0)
        }
    }

    @Test func anUnexpectedHeadIsRefused() throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite")
            try store.commit(Op(id: UUID(), timestamp: 0, changes: [.set("y", 1)]))
            // Matched by its case, as import-json does: never by the words of a generic error.
            #expect(throws: StoreError.headMoved(expected: 0, found: 1)) { try store.appendAll(Self.ops(3), expectedHead: 0) }
            #expect(try store.logHead() == 1 && store.head == 1)
            #expect(StoreError.headMoved(expected: 0, found: 1).localizedDescription
                == "The log has 1 transaction where 0 were expected: another boomic process committed meanwhile; nothing was appended.")
        }
    }
}
