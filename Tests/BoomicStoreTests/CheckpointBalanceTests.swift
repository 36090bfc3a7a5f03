import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// After each checkpoint written by policy, one older checkpoint may move to where it saves the
/// most replay (CheckpointBalance.swift): checkpoints spread over history instead of staying
/// where they were first written, and a moved one holds the state at its seq.
@Suite struct CheckpointBalanceTests {
    /// What a 10,000-transaction history kept before moves (run W5's bench library): the one at
    /// 201 moves to the middle of the gap its removal leaves; the one after the import stays.
    @Test func theCheckpointLeftBehindAnImportMovesToTheMiddle() throws {
        let stored = [StoredCheckpoint(seq: 1, weight: 50_000, size: 100), StoredCheckpoint(seq: 201, weight: 400, size: 100),
                      StoredCheckpoint(seq: 9_901, weight: 19_400, size: 100)]
        let move = try #require(CheckpointPolicy<Int>.bestMove(stored))
        #expect(move == .init(dropping: 201, after: 1, through: 9_901))
        let cut = try #require(CheckpointPolicy<Int>.cut((2...9_901).map { TailItem(seq: $0, weight: 2) }))
        #expect(cut.seq == 4_951 && cut.weight == 9_900)
        let moved = CheckpointPolicy<Int>().moving(stored, move, to: cut, size: 100)
        #expect(moved?.map(\.seq) == [1, 4_951, 9_901])
        #expect(moved?.map(\.weight) == [50_000, 9_900, 9_900], "the weights still add up to the rows'")
    }

    /// A gap of one transaction cannot be cut, however heavy: the checkpoint after an import is
    /// not moved to halve it.
    @Test func aGapOfOneTransactionIsNotCut() {
        #expect(CheckpointPolicy<Int>.gapWeights([StoredCheckpoint(seq: 1, weight: 50_000), StoredCheckpoint(seq: 101, weight: 200)])
            == [200])
        #expect(CheckpointPolicy<Int>.bestMove([StoredCheckpoint(seq: 1, weight: 50_000), StoredCheckpoint(seq: 101, weight: 200)]) == nil)
        #expect(CheckpointPolicy<Int>.cut([TailItem(seq: 7, weight: 9)]) == nil)
    }

    /// The stored weights choose the move; the rows decide it. A heavy row right after the
    /// dropped checkpoint puts the cut back where it was: no move.
    @Test func aMoveTheRowsDoNotBearOutIsNotMade() throws {
        let stored = [StoredCheckpoint(seq: 100, weight: 100), StoredCheckpoint(seq: 200, weight: 1_099),
                      StoredCheckpoint(seq: 300, weight: 100)]
        let move = try #require(CheckpointPolicy<Int>.bestMove(stored))
        #expect(move == .init(dropping: 100, after: 0, through: 200))
        let rows = (1...200).map { TailItem(seq: $0, weight: $0 == 101 ? 1_000 : 1) }
        let cut = try #require(CheckpointPolicy<Int>.cut(rows))
        #expect(cut.seq == 100)
        #expect(CheckpointPolicy<Int>().moving(stored, move, to: cut, size: 1) == nil)
    }

    /// An import, then small edits committed one at a time under the size rule (the newest and
    /// two more): the checkpoint written first after the import moves on, so the widest gap
    /// after the import stays near half the history (thinning alone leaves one that spans
    /// almost all of it, checked), and every checkpoint, moved or not, holds its state.
    @Test func aLongHistoryKeepsItsCheckpointsSpread() throws {
        try withTemporaryDirectory { dir in
            let store = try ToyStore(path: dir + "/library.sqlite", initial: Counters(), apply: applyOp, flatten: flattenOps,
                                     codec: countersCodec,
                                     policy: CheckpointPolicy(every: 50, maxWeight: 500, sizeRatio: 2, weight: { $0.changes.count }))
            try store.commit(Op(id: UUID(), timestamp: 0, changes: (0..<600).map { .set("k\($0)", $0) }))
            for i in 1...2_000 {
                try store.commit(Op(id: UUID(), timestamp: Double(i), changes: [.set("k\(i % 600)", -i)]))
                guard i % 250 == 0 else { continue }
                let seqs = try store.checkpointSeqs()
                let widest = zip(seqs, seqs.dropFirst()).map { $1 - $0 }.max() ?? 0
                #expect(seqs.count == 3 && seqs.first == 1, "\(seqs)")
                #expect(widest * 10 <= i * 6, "at \(i), checkpoints \(seqs)")
            }
            for seq in try store.checkpointSeqs() {
                #expect(try store.storedCheckpoint(at: seq) == store.basis(at: seq, usingCheckpoints: false), "checkpoint \(seq)")
            }
        }
    }
}
