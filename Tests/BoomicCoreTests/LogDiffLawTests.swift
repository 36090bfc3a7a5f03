import BoomicTestSupport
import Testing
@testable import BoomicCore

/// `diff` read from the log (the transactions between two states, flattened) equals the diff of
/// the two states, forwards and backwards, and a state taken back from a later one equals the
/// state itself, on every random history. A failure names the seed; `BOOMIC_SEED=<seed>`
/// replays it.
@Suite("Diff from the log equals the diff of the states, on random histories")
struct LogDiffLawTests {
    @Test("LogDiff between any two states equals DataBasis.diff, both ways")
    func logDiffEqualsTheStatesDiff() {
        var checked = 0, nonEmpty = 0
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0xD1FF)
            let n = h.transactions.count
            guard n > 0 else { continue }
            for _ in 0..<8 {
                let a = Int.random(in: 0...n, using: &rng), b = Int.random(in: 0...n, using: &rng)
                let span = Array(h.transactions[min(a, b)..<max(a, b)])
                let got = LogDiff.assertions(span, from: a, to: b)
                let expected = h.bases[a].diff(to: h.bases[b])
                #expect(got == expected, "seed \(h.seed): diff \(a) → \(b)")
                #expect(h.bases[a].applying(got) == h.bases[b], "seed \(h.seed): \(a) plus the diff is \(b)")
                checked += 1
                if !got.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(1_000), "only \(checked) pairs")
        #expect(nonEmpty >= Seeds.atLeast(500), "only \(nonEmpty) pairs differ")
    }

    @Test("a state taken back from the head equals the state")
    func takingBackGivesTheEarlierState() {
        var checked = 0
        for h in Histories.all {
            for a in stride(from: 0, through: h.transactions.count, by: max(1, h.transactions.count / 6)) {
                let back = LogDiff.basis(h.head, takingBack: Array(h.transactions[a...]))
                #expect(back == h.bases[a], "seed \(h.seed): state \(a) from the head \(h.seq)")
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(1_000), "only \(checked) states")
    }
}
