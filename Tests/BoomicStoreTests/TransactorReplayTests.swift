import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// Replay is the contract everything else rests on: every state the log names can be rebuilt,
/// from any checkpoint or none, and gives the fold of the transactions up to it.
@Suite struct TransactorReplayTests {
    /// 200 random histories: `basis(at: k)` is the fold of the first k transactions, with frequent
    /// checkpoints, after reopening, and with every checkpoint deleted. A case per seed, so that
    /// the histories (a minute in a debug build) run in parallel rather than as one long test.
    @Test(arguments: Seeds.list(200, from: 1))
    func basisAtEveryStateIsTheFold(seed: UInt64) throws {
        try withTemporaryDirectory { dir in
            var rng = SplitMix64(seed: seed)
            let path = dir + "/library.sqlite"
            let every = Int.random(in: 1...6, using: &rng)
            let retained = Int.random(in: 1...4, using: &rng)
            let store = try openToy(path, checkpointEvery: every, retained: retained)
            let count = Int.random(in: 0...24, using: &rng)
            var folds = [Counters()]
            for i in 0..<count {
                let op = rng.op(at: Double(i))
                let seq = try store.commit(op)
                #expect(seq == i + 1, "seed \(seed)")
                folds.append(applyOp(op, folds.last!))
            }
            #expect(store.head == count, "seed \(seed)")
            #expect(store.basis == folds.last!, "seed \(seed)")
            if count >= every { #expect(try !store.checkpointSeqs().isEmpty, "seed \(seed)") }
            #expect(try store.checkpointSeqs().count <= retained, "seed \(seed)")

            let reopened = try openToy(path, checkpointEvery: every, flatten: seed % 2 == 0)
            #expect(reopened.basis == folds.last!, "seed \(seed)")
            for k in 0...count {
                #expect(try store.basis(at: k) == folds[k], "seed \(seed), k \(k)")
                #expect(try reopened.basis(at: k) == folds[k], "seed \(seed), k \(k), reopened")
                #expect(try store.basis(at: k, usingCheckpoints: false) == folds[k], "seed \(seed), k \(k), no checkpoints")
                // What taking back from a later state reads: that state, and the transactions since an earlier one.
                let after = Int.random(in: 0...k, using: &rng)
                let (later, between) = try store.basis(at: k, withTransactionsAfter: after)
                let entries = try store.entries(from: after + 1, through: k).map(\.transaction)
                #expect(later == folds[k] && between == entries,
                        "seed \(seed), k \(k) with the transactions after \(after)")
            }
            try reopened.dropCheckpoints()
            #expect(try reopened.checkpointSeqs().isEmpty)
            let bare = try openToy(path, checkpointEvery: nil)
            #expect(bare.basis == folds.last!, "seed \(seed), no checkpoints")
            for k in 0...count { #expect(try bare.basis(at: k) == folds[k], "seed \(seed), k \(k), dropped") }
        }
    }

    @Test func openStartsFromTheCheckpoint() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path, checkpointEvery: 10)
            var rng = SplitMix64(seed: 7)
            for i in 0..<25 { try store.commit(rng.op(at: Double(i))) }
            #expect(try store.checkpointSeqs() == [10, 20])
            // Poison the rows a checkpoint covers: if open replayed them it would fail.
            try tamper(path, "UPDATE log SET checksum = 'xxh64:0000000000000000' WHERE seq <= 20")
            let reopened = try openToy(path, checkpointEvery: 10)
            #expect(reopened.basis == store.basis)
            #expect(reopened.head == 25)
        }
    }

    @Test func garbageCheckpointIsIgnored() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path, checkpointEvery: 5)
            var rng = SplitMix64(seed: 11)
            for i in 0..<12 { try store.commit(rng.op(at: Double(i))) }
            let expected = store.basis
            let at7 = try store.basis(at: 7)
            // Valid checksum but undecodable data, a wrong checksum, and a future format.
            let junk = Checksum.string(of: [1, 2, 3])
            try tamper(path, "UPDATE checkpoints SET data = x'010203', checksum = '\(junk)' WHERE seq = 10")
            try tamper(path, "UPDATE checkpoints SET data = x'7b7d' WHERE seq = 5")
            try tamper(path, "INSERT INTO checkpoints VALUES (11, 99, 1, 'xxh64:0', x'00')")
            let reopened = try openToy(path, checkpointEvery: 5)
            #expect(reopened.basis == expected)
            #expect(try reopened.basis(at: 7) == at7)
            #expect(try reopened.basis(at: 11) == (try store.basis(at: 11, usingCheckpoints: false)))
        }
    }

    /// Long tails are decoded on another thread while the checkpoint decodes. When the newest
    /// checkpoint is damaged, the rows between the older one used instead and it are replayed
    /// too; a damaged row anywhere in the tail is still the error that opening reports.
    @Test func longTailsReplayTheSameWithADamagedNewestCheckpoint() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let tail = ToyStore.backgroundTailRows
            let store = try openToy(path, checkpointEvery: 2 * tail)
            var rng = SplitMix64(seed: 29)
            var folds = [Counters()]
            for i in 0..<(5 * tail + 3) {
                let op = rng.op(at: Double(i))
                try store.commit(op)
                folds.append(applyOp(op, folds.last!))
            }
            let newest = 4 * tail
            #expect(try store.checkpointSeqs() == [2 * tail, newest])
            // Background tail, good checkpoint (open never flattens; basis(at:) does).
            try tamper(path, "UPDATE log SET checksum = 'xxh64:0000000000000000' WHERE seq <= \(newest)")
            #expect(try openToy(path, checkpointEvery: 2 * tail).basis == folds.last!)
        }
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let tail = ToyStore.backgroundTailRows
            let store = try openToy(path, checkpointEvery: 2 * tail)
            var rng = SplitMix64(seed: 31)
            var folds = [Counters()]
            for i in 0..<(5 * tail + 3) {
                let op = rng.op(at: Double(i))
                try store.commit(op)
                folds.append(applyOp(op, folds.last!))
            }
            let head = 5 * tail + 3
            // The newest checkpoint does not decode: replay from the one before, through both segments.
            let junk = Checksum.string(of: [1, 2, 3])
            try tamper(path, "UPDATE checkpoints SET data = x'010203', checksum = '\(junk)' WHERE seq = \(4 * tail)")
            for flatten in [true, false] {
                let reopened = try openToy(path, checkpointEvery: 2 * tail, flatten: flatten)
                #expect(reopened.basis == folds[head])
                #expect(reopened.head == head)
                for k in [0, 1, 2 * tail, 3 * tail, 4 * tail, head - 1] {
                    #expect(try reopened.basis(at: k) == folds[k], "k \(k)")
                }
            }
            // A damaged row in the part decoded in the background, then in the part decoded here.
            for seq in [head - 1, 3 * tail] {
                try tamper(path, "UPDATE log SET checksum = 'x' || checksum WHERE seq = \(seq)")
                #expect {
                    _ = try openToy(path, checkpointEvery: 2 * tail)
                } throws: { error in
                    if case StoreError.corrupt(seq: seq, _) = error { return true } else { return false }
                }
                try tamper(path, "UPDATE log SET checksum = substr(checksum, 2) WHERE seq = \(seq)")
            }
            #expect(try openToy(path, checkpointEvery: 2 * tail).basis == folds[head])
        }
    }

    @Test func rebuildCheckpointsChangesNothingButSpeed() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path, checkpointEvery: 4, retained: 3)
            var rng = SplitMix64(seed: 3)
            var folds = [Counters()]
            for i in 0..<30 {
                let op = rng.op(at: Double(i))
                try store.commit(op)
                folds.append(applyOp(op, folds.last!))
            }
            let committed = (try store.checkpointSeqs(), try store.checkpointWeights())
            try tamper(path, "UPDATE checkpoints SET data = x'00'")
            let seqs = try store.rebuildCheckpoints()
            #expect(seqs.count == 3)
            #expect(seqs.last == 28)
            // Where commits one at a time left them, moves included, each weighing as much.
            let weights = try store.checkpointWeights()
            #expect(seqs == committed.0 && weights == committed.1, "\(seqs) against \(committed)")
            for k in 0...30 { #expect(try store.basis(at: k) == folds[k]) }
            #expect(try openToy(path, checkpointEvery: 4).basis == folds[30])
        }
    }

    /// Under a minimum gap (the size floor out of reach), the rebuild writes only the ones the
    /// plan keeps, and they are the ones commits one at a time keep.
    @Test func rebuildCheckpointsPutsThemWhereCommitsDid() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path, checkpointEvery: 3, retained: nil, sizeRatio: 2, sizeFloor: 1 << 30, minimumGap: 10)
            var rng = SplitMix64(seed: 8)
            for i in 0..<150 { try store.commit(rng.op(at: Double(i))) }
            let committed = (try store.checkpointSeqs(), try store.checkpointWeights())
            try #require(committed.0.count > 3, "\(committed)")
            let seqs = try store.rebuildCheckpoints()
            let weights = try store.checkpointWeights()
            #expect(seqs == committed.0 && weights == committed.1, "\(seqs) against \(committed)")
        }
    }

    @Test func weightTriggersACheckpointBeforeTheCount() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let policy = CheckpointPolicy<Op>(every: 1000, maxWeight: 10) { $0.changes.count }
            let store = try ToyStore(path: path, initial: Counters(), apply: applyOp, codec: countersCodec, policy: policy)
            try store.commit(Op(id: UUID(), timestamp: 0, changes: [.add("a", 1)]))
            #expect(try store.checkpointSeqs().isEmpty)
            try store.commit(Op(id: UUID(), timestamp: 1, changes: Array(repeating: .add("a", 1), count: 12)))
            #expect(try store.checkpointSeqs() == [2])
        }
    }

    @Test func aBasisBeyondTheLogIsAnError() throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite")
            #expect(try store.basis(at: 0) == Counters())
            #expect(throws: StoreError.noSuchSeq(3, head: 0)) { try store.basis(at: 3) }
            #expect(throws: StoreError.noSuchSeq(-1, head: 0)) { try store.basis(at: -1) }
        }
    }
}
