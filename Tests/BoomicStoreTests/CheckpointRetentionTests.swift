import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// Checkpoints are kept by size, not by count (storage.md, "Checkpoints"): the newest always;
/// the older ones while together they weigh at most twice the newest, thinned by the lightest
/// replay between neighbours.
@Suite struct CheckpointRetentionTests {
    /// Checkpoints at 10, 20, … each weighing 10 transactions, of the given sizes.
    func sized(_ sizes: [Int]) -> [StoredCheckpoint] {
        sizes.enumerated().map { StoredCheckpoint(seq: 10 * ($0.offset + 1), weight: 10, size: $0.element) }
    }

    @Test func theOlderOnesWeighAtMostTwiceTheNewest() {
        let policy = CheckpointPolicy<Int>()
        #expect(policy.sizeRatio == 2 && policy.retained == nil)
        // Ten full ones of one size: the newest and two more.
        let same = policy.thinned(sized(Array(repeating: 1_000, count: 10)))
        #expect(same.count == 3 && same.last?.seq == 100)
        #expect(same.map(\.weight).reduce(0, +) == 100, "a dropped one's weight goes to the next")
        // A growing library: as many of the small early ones as fit in 2 × 100.
        let growing = policy.thinned(sized(Array(stride(from: 10, through: 100, by: 10))))
        #expect(growing.last?.size == 100)
        #expect(growing.dropLast().map(\.size).reduce(0, +) <= 200)
        #expect(growing.count >= 3)
        // A library that shrank: every older one is heavier than the budget.
        #expect(policy.thinned(sized([1_000, 1_000, 1_000, 10])).map(\.seq) == [40])
        #expect(policy.thinned(sized([150, 10])).map(\.seq) == [20])
        #expect(policy.thinned(sized([5, 5, 10])).map(\.seq) == [10, 20, 30], "within the budget: all kept")
        // Ratio 0: the newest alone; a count limit still applies on top of the size.
        #expect(CheckpointPolicy<Int>(sizeRatio: 0).thinned(sized([1, 1, 1])).map(\.seq) == [30])
        #expect(CheckpointPolicy<Int>(retained: 2).thinned(sized([1, 1, 1])).count == 2)
    }

    /// A size floor keeps more while checkpoints are small (the library's 64 MiB: six of 10.5 MB
    /// besides the newest at 50,000 songs), and twice the newest rules once that is more.
    @Test func aSizeFloorKeepsMoreWhileCheckpointsAreSmall() {
        let floor = CheckpointPolicy<Int>(sizeFloor: 3_000)
        #expect(floor.thinned(sized(Array(repeating: 1_000, count: 10))).count == 4, "the newest and three of 1,000")
        #expect(floor.thinned(sized(Array(repeating: 2_000, count: 10))).count == 3, "twice the newest: 4,000")
        #expect(CheckpointPolicy<Int>().thinned(sized(Array(repeating: 1_000, count: 10))).count == 3)
    }

    /// A minimum gap drops checkpoints that split light replays, whatever room the size rules
    /// leave: a small library keeps what its history needs, not all it has room for.
    @Test func aMinimumGapDropsCheckpointsBetweenLightReplays() {
        let policy = CheckpointPolicy<Int>(sizeRatio: nil, minimumGap: 25)
        let kept = policy.thinned(sized(Array(repeating: 1, count: 10)))
        #expect(kept.map(\.seq) == [20, 40, 60, 80, 100])
        #expect(kept.map(\.weight) == [20, 20, 20, 20, 20], "a dropped one's weight goes to the next")
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.weight + $1.weight > 25 }, "no two gaps left that weigh 25 together")
        // The checkpoint after a heavy transaction splits no light replay: it stays.
        let heavy = [StoredCheckpoint(seq: 1, weight: 1_000, size: 1)] + (1...4).map { StoredCheckpoint(seq: 1 + $0, weight: 1, size: 1) }
        #expect(policy.thinned(heavy).map(\.seq) == [1, 5])
    }

    /// The lightest replay goes first: the checkpoint after a heavy transaction outlives those
    /// between small edits, whatever the sizes.
    @Test func theCheckpointAfterAHeavyTransactionIsKept() {
        let checkpoints = [StoredCheckpoint(seq: 1, weight: 50_000, size: 100)]
            + (1...10).map { StoredCheckpoint(seq: 1 + 500 * $0, weight: 500, size: 100) }
        let kept = CheckpointPolicy<Int>().thinned(checkpoints)
        #expect(kept.count == 3 && kept.first?.seq == 1 && kept.last?.seq == 5001)
    }

    /// A store with the default policy: after many checkpoints, what is stored obeys the rule.
    @Test func aStoreKeepsItsCheckpointsBySize() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openHeld(path, checkpointEvery: 3)
            var rng = SplitMix64(seed: 5)
            for i in 0..<60 { try store.commit(rng.op(at: Double(i))) }
            let c = try SQLiteConnection(path: path)
            let stmt = try c.statement("SELECT seq, length(data) FROM checkpoints ORDER BY seq")
            var rows: [(seq: Int, size: Int)] = []
            while try stmt.step() { rows.append((stmt.int(0), stmt.int(1))) }
            stmt.reset()
            #expect(rows.last?.seq == 60)
            #expect(rows.count >= 2 && rows.count < 20, "\(rows)")
            #expect(rows.dropLast().map(\.size).reduce(0, +) <= 2 * rows.last!.size, "\(rows)")
        }
    }
}
