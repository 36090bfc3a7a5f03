import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// A rollback's assertions read from the log (the transactions after the target, flattened and
/// taken back) equal those of the old way, the diff of the head and the target state, on every
/// random history; and so do those of the undo that takes the rollback back, read from the log
/// in turn (the rollback is the one transaction after its target). With and without the play
/// fields; and the diff over the songs the transactions between name equals the whole diff. A
/// failure names the seed; `BOOMIC_SEED=<seed>` replays it.
@Suite("Rollback and its undo from the log equal the diff of the states, on random histories")
struct RollbackFromLogLawTests {
    @Test("rollback(takingBack:) and rollback(from:to:songs:) equal rollback(from:to:), and so does the undo of it")
    func rollbackFromTheLogEqualsTheStatesDiff() {
        var checked = 0, nonEmpty = 0
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0x5011_BAC4)
            let n = h.transactions.count
            guard n > 0 else { continue }
            for _ in 0..<6 {
                let head = Int.random(in: 1...n, using: &rng), target = Int.random(in: 0..<head, using: &rng)
                let span = Array(h.transactions[target..<head])
                let back = EditGeneration.rollback(takingBack: span)
                let expected = EditGeneration.rollback(from: h.bases[head], to: h.bases[target])
                #expect(back == expected, "seed \(h.seed): rollback \(head) → \(target)")
                #expect(EditGeneration.keepingPlays(back) == EditGeneration.keepingPlays(expected),
                        "seed \(h.seed): rollback \(head) → \(target) without plays")
                // The diff over the songs the span names (the index's answer) is the whole diff.
                let touched = span.flatMap { $0.assertions.compactMap(\.songID) }
                #expect(EditGeneration.rollback(from: h.bases[head], to: h.bases[target], songs: touched) == expected,
                        "seed \(h.seed): rollback \(head) → \(target) over the songs touched")

                // The rollback committed on the head, then undone: its undo read from the log
                // (the rollback alone taken back) is the diff back to the head.
                let rollback = Transaction(id: UUID(), parent: nil, timestamp: 0, kind: .rollback, label: "rollback", assertions: back)
                let after = h.bases[head].applying(rollback)
                #expect(after == h.bases[target], "seed \(h.seed): the rollback to \(target) reaches it")
                let undo = EditGeneration.rollback(takingBack: [rollback])
                #expect(undo == EditGeneration.rollback(from: after, to: h.bases[head]), "seed \(h.seed): undo of rollback \(head) → \(target)")
                #expect(after.applying(undo) == h.bases[head], "seed \(h.seed): the undo returns to \(head)")
                checked += 1
                if !back.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(1_000), "only \(checked) rollbacks")
        #expect(nonEmpty >= Seeds.atLeast(500), "only \(nonEmpty) rollbacks change something")
    }
}
