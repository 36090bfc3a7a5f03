import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// `FoldedNeedle.asciiMatch` on random texts and needles agrees with the plain definition: nil
/// for a text with a byte past ASCII or a CR; else whether the text, ASCII letters lower-cased,
/// contains (or, whole, is) the needle's bytes.
@Suite("Folded needle")
struct FoldedNeedleLawTests {
    static let alphabet: [String] = ["a", "A", "b", "B", "z", "Z", "[", "@", "`", "{", " ", "1", "é", "\r", "\n", "ab", "AB"]

    static func reference(_ needle: FoldedNeedle, _ text: String, whole: Bool) -> Bool? {
        let hay = Array(text.utf8)
        if hay.contains(where: { $0 >= 0x80 || $0 == 0x0D }) { return nil }
        guard needle.text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        let lowered = hay.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let n = Array(needle.text.utf8)
        if whole { return lowered == n }
        if n.isEmpty { return true }
        guard lowered.count >= n.count else { return false }
        return (0...(lowered.count - n.count)).contains { Array(lowered[$0..<$0 + n.count]) == n }
    }

    @Test("asciiMatch is the plain definition", arguments: Seeds.list(4, from: 0xF0_1D))
    func asciiMatchIsThePlainDefinition(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var found = 0
        for _ in 0..<3_000 {
            // Needles as queries fold them (lower case); some with a capital, which no text matches.
            let raw = (0..<Int.random(in: 0...3, using: &rng)).map { _ in rng.pick(Self.alphabet) }.joined()
            let needle = FoldedNeedle(folded: Bool.random(using: &rng) ? Fold.key(raw) : raw)
            let text = (0..<Int.random(in: 0...30, using: &rng)).map { _ in rng.pick(Self.alphabet) }.joined()
            for whole in [false, true] {
                let got = needle.asciiMatch(text, whole: whole)
                if got == true { found += 1 }
                #expect(got == Self.reference(needle, text, whole: whole),
                        "\(Seeds.replay(seed)): \(needle.text.debugDescription) in \(text.debugDescription), whole \(whole)")
            }
        }
        #expect(found >= Seeds.atLeast(200), "\(Seeds.replay(seed)): only \(found) matches")
    }
}
