import BoomicTestSupport
import Foundation
import Synchronization
import Testing
@testable import BoomicStore

/// Opening folds the tail after the newest checkpoint with `applyAll` when there is one (a basis
/// reads ahead what the whole tail touches), never with `flatten`: the head is the exact fold of
/// the log, whatever else the store may flatten.
@Suite struct TransactorTailFoldTests {
    @Test(arguments: Seeds.list(20, from: 1))
    func theOpenFoldsTheTailOnceWithApplyAll(seed: UInt64) throws {
        try withTemporaryDirectory { dir in
            var rng = SplitMix64(seed: seed)
            let path = dir + "/library.sqlite"
            let every = Int.random(in: 3...9, using: &rng)
            let writer = try openToy(path, checkpointEvery: every)
            var ops: [Op] = []
            for n in 0..<Int.random(in: 1...40, using: &rng) {
                let op = rng.op(at: Double(n))
                _ = try writer.commit(op)
                ops.append(op)
            }
            let tail = writer.head - (try writer.checkpointSeqs().max() ?? 0)
            let folds = Mutex<[Int]>([])
            let reopened = try ToyStore(
                path: path, initial: Counters(), apply: applyOp, flatten: flattenOps,
                applyAll: { ts, basis in
                    folds.withLock { $0.append(ts.count) }
                    return ts.reduce(basis) { applyOp($1, $0) }
                },
                codec: countersCodec, policy: CheckpointPolicy(every: every, retained: 10))
            #expect(reopened.basis == ops.reduce(Counters()) { applyOp($1, $0) }, "seed \(seed)")
            #expect(reopened.basis == writer.basis, "seed \(seed)")
            // One fold of the whole tail when it holds more than one transaction; one `apply` otherwise.
            #expect(folds.withLock { $0 } == (tail > 1 ? [tail] : []), "seed \(seed): tail \(tail)")
        }
    }
}
