import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// The index of keys → transactions: what `touches(of:)` answers equals what the log says,
/// whether every commit recorded itself, the log was written by a build without the index, the
/// index fell behind, or it is of another format.
@Suite struct TransactorTouchesTests {
    /// The toy's index: each counter an op names, with the kinds of its changes to it.
    static func indexing(format: Int = 1, prefix: String = "") -> TouchIndexing<Op> {
        TouchIndexing(format: format) { op in
            var order: [String] = [], by: [String: [String]] = [:]
            for c in op.changes {
                let (key, kind): (String, String)
                switch c {
                case let .add(k, _): (key, kind) = (k, "add")
                case let .set(k, _): (key, kind) = (k, "set")
                case let .delete(k): (key, kind) = (k, "delete")
                }
                if by[key] == nil { order.append(key) }
                by[key, default: []].append(prefix + kind)
            }
            return order.map { (key: $0, info: by[$0]!.joined(separator: ",")) }
        }
    }

    static func open(_ path: String, _ indexing: TouchIndexing<Op>? = Self.indexing()) throws -> ToyStore {
        try ToyStore(path: path, initial: Counters(), apply: applyOp, flatten: flattenOps, codec: countersCodec,
                     policy: CheckpointPolicy(every: 7), touchIndexing: indexing)
    }

    /// What the index must say, computed from the ops themselves: per key, newest first.
    static func expected(_ ops: [Op], _ indexing: TouchIndexing<Op> = Self.indexing()) -> [String: [Touch]] {
        var out: [String: [Touch]] = [:]
        for (i, op) in ops.enumerated() {
            for (key, info) in indexing.touches(op) { out[key, default: []].insert(Touch(seq: i + 1, info: info), at: 0) }
        }
        return out
    }

    static let keys = ["a", "b", "c", "d", "nobody"]

    static func ops(_ n: Int, seed: UInt64) -> [Op] {
        var rng = SplitMix64(seed: seed)
        return (1...n).map { rng.op(at: Double($0)) }
    }

    @Test func everyCommitRecordsItselfFromTheFirst() throws {
        try withTemporaryDirectory { dir in
            let ops = Self.ops(60, seed: 1)
            let store = try Self.open(dir + "/t.sqlite")
            for op in ops { try store.commit(op) }
            #expect(try store.touchesIndexedThrough() == 60, "kept by the commits, nothing left to catch up")
            #expect(try store.touches(of: Self.keys) == Self.expected(ops))
        }
    }

    @Test func aBatchRecordsEveryTransaction() throws {
        try withTemporaryDirectory { dir in
            let ops = Self.ops(90, seed: 2)
            let store = try Self.open(dir + "/t.sqlite")
            try store.appendAll(ops, expectedHead: 0)
            #expect(try store.touchesIndexedThrough() == 90)
            #expect(try store.touches(of: Self.keys) == Self.expected(ops))
        }
    }

    /// A log written by a build that keeps no index (or an old library) is read once, from the
    /// start; after that the commits keep it; a commit by such a build again leaves it behind,
    /// and the next question reads only what it missed.
    @Test func aLogWrittenWithoutTheIndexIsCaughtUp() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/t.sqlite"
            let ops = Self.ops(600, seed: 3) // more than one page of catching up
            let old = try Self.open(path, nil)
            for op in ops[..<500] { try old.commit(op) }
            let new = try Self.open(path)
            #expect(try new.touchesIndexedThrough() == nil)
            #expect(try new.touches(of: Self.keys) == Self.expected(Array(ops[..<500])))
            #expect(try new.touchesIndexedThrough() == 500)
            for op in ops[500..<550] { try new.commit(op) }
            #expect(try new.touchesIndexedThrough() == 550)
            for op in ops[550...] { try old.commit(op) }
            #expect(try new.touchesIndexedThrough() == 550, "the old build's commits are not in it")
            #expect(try new.touches(of: Self.keys) == Self.expected(ops))
            #expect(try new.touchesIndexedThrough() == 600)
        }
    }

    /// How SQLite reads the keys of a span: through `touches_by_seq`, or over every row.
    static func spanPlan(_ path: String) throws -> String {
        let c = try SQLiteConnection(path: path)
        let stmt = try c.statement("EXPLAIN QUERY PLAN SELECT key FROM touches WHERE seq > 10 AND seq <= 20")
        defer { stmt.reset() }
        var plan: [String] = []
        while try stmt.step() { plan.append(stmt.text(3)) }
        return plan.joined(separator: "; ")
    }

    /// The keys of a span of the log are read from the span's own rows (the index by seq), and
    /// a file made before that index gets it from the next catch-up, with the same answers.
    @Test func theKeysOfASpanComeFromTheIndexBySeq() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/t.sqlite"
            let ops = Self.ops(60, seed: 9)
            let store = try Self.open(path)
            for op in ops { try store.commit(op) }
            for (after, through) in [(0, 60), (10, 20), (59, 60), (30, 30)] {
                let want = Set(ops[after..<through].flatMap { Self.indexing().touches($0).map(\.key) })
                #expect(try store.touchedKeys(after: after, through: through) == want, "\(after)...\(through)")
            }
            let plan = try Self.spanPlan(path)
            #expect(plan.contains("touches_by_seq"), "\(plan)")
            try tamper(path, "DROP INDEX touches_by_seq")
            #expect(try !Self.spanPlan(path).contains("touches_by_seq"))
            let want = Set(ops[10..<20].flatMap { Self.indexing().touches($0).map(\.key) })
            #expect(try store.touchedKeys(after: 10, through: 20) == want, "without the index, the same keys")
            try store.catchUpTouchIndex()
            let rebuilt = try Self.spanPlan(path)
            #expect(rebuilt.contains("touches_by_seq"), "\(rebuilt)")
            #expect(try store.touchedKeys(after: 10, through: 20) == want)
        }
    }

    /// Another process holding the write lock: the question reads the missing rows in memory
    /// instead of waiting for it (the busy timeout is 30 s), and records nothing.
    @Test func aQuestionNeverWaitsForAWriter() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/t.sqlite"
            let ops = Self.ops(50, seed: 6)
            let old = try Self.open(path, nil)
            for op in ops { try old.commit(op) }
            let new = try Self.open(path)
            let other = try SQLiteConnection(path: path)
            try other.begin(immediate: true)
            let started = ContinuousClock.now
            #expect(try new.touches(of: Self.keys) == Self.expected(ops))
            #expect(ContinuousClock.now - started < .seconds(10), "it waited for the write lock")
            #expect(try new.touchesIndexedThrough() == nil, "nothing recorded while another held the lock")
            other.rollback()
            #expect(try new.touches(of: Self.keys) == Self.expected(ops))
            #expect(try new.touchesIndexedThrough() == 50)
        }
    }

    /// The last transactions deleted by hand (`storage.md`: a log that is whole, only shorter):
    /// the index's rows for them describe nothing and are never used; the next commits reuse
    /// their seqs and the index answers for them.
    @Test func anIndexPastTheLogIsNotUsed() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/t.sqlite"
            let ops = Self.ops(50, seed: 7)
            let first = try Self.open(path)
            for op in ops { try first.commit(op) }
            try tamper(path, "DELETE FROM log WHERE seq > 30; DELETE FROM checkpoints WHERE seq > 30")
            let reader = try Self.open(path)
            #expect(try reader.touches(of: Self.keys) == Self.expected(Array(ops[..<30])))
            let later = Self.ops(12, seed: 8)
            for op in later { try reader.commit(op) }
            #expect(try reader.touches(of: Self.keys) == Self.expected(Array(ops[..<30]) + later))
            #expect(try reader.touchesIndexedThrough() == 42)
        }
    }

    @Test func anIndexOfAnotherFormatIsRebuilt() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/t.sqlite"
            let ops = Self.ops(40, seed: 4)
            let first = try Self.open(path)
            for op in ops { try first.commit(op) }
            let other = Self.indexing(format: 2, prefix: "v2-")
            let second = try Self.open(path, other)
            #expect(try second.touchesIndexedThrough() == nil, "format 1 is not format 2's")
            #expect(try second.touches(of: Self.keys) == Self.expected(ops, other))
            #expect(try second.touchesIndexedThrough() == 40)
        }
    }

    /// Only the tables of the index: deleting them changes nothing but speed.
    @Test func droppedTablesAreRebuilt() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/t.sqlite"
            let ops = Self.ops(30, seed: 5)
            let store = try Self.open(path)
            for op in ops { try store.commit(op) }
            try tamper(path, "DROP TABLE touches; DROP TABLE derived")
            let again = try Self.open(path)
            #expect(try again.touches(of: Self.keys) == Self.expected(ops))
        }
    }
}
