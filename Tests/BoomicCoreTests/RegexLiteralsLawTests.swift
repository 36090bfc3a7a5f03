import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The literals read from a pattern never rule out a text the regex matches, and a pattern read
/// as a whole literal matches exactly where its bytes occur: checked against NSRegularExpression
/// itself on random patterns and texts.
@Suite("Regex literals")
struct RegexLiteralsLawTests {
    /// Letters that compose (é as one code point and as e + U+0301), metacharacters, spaces.
    static let patternAlphabet: [String] = ["a", "b", "é", "e\u{301}", "Å", " ", "^", "$", ".", "*", "+", "?",
                                            "|", "(", ")", "[", "]", "{2}", "\\d", "\\", "-", "ü", "ab"]
    static let textAlphabet: [String] = ["a", "b", "é", "e\u{301}", "\u{301}", "Å", " ", "1", "-", "ü", "\n"]

    @Test("what the literals rule out, the regex does not match", arguments: Seeds.list(4, from: 0x5E6E))
    func literalsAreImpliedByAMatch(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var checked = 0, ruledOut = 0, wholes = 0
        for _ in 0..<3_000 {
            let pattern = (0..<Int.random(in: 0...6, using: &rng)).map { _ in rng.pick(Self.patternAlphabet) }.joined()
            guard let re = try? NSRegularExpression(pattern: pattern) else { continue }
            let literals = RegexLiterals(pattern: pattern)
            if literals.whole != nil { wholes += 1 }
            for _ in 0..<8 {
                let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in rng.pick(Self.textAlphabet) }.joined()
                let matches = re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                let admits = literals.admits(text)
                checked += 1
                if !admits { ruledOut += 1 }
                #expect(admits || !matches, "\(Seeds.replay(seed)): \(pattern.debugDescription) matches \(text.debugDescription) but is ruled out")
                if literals.whole != nil {
                    #expect(admits == matches, "\(Seeds.replay(seed)): whole literal \(pattern.debugDescription) on \(text.debugDescription)")
                }
            }
        }
        #expect(checked >= Seeds.atLeast(5_000) && ruledOut >= Seeds.atLeast(500) && wholes >= Seeds.atLeast(100),
                "\(Seeds.replay(seed)): \(checked) checked, \(ruledOut) ruled out, \(wholes) whole literals")
    }

    @Test("what is read from typical patterns")
    func typicalPatterns() {
        #expect(RegexLiterals(pattern: "live").whole == Array("live".utf8))
        #expect(RegexLiterals(pattern: "^Song T00421").prefix == Array("Song T00421".utf8))
        #expect(RegexLiterals(pattern: "^Songs?").prefix == Array("Song".utf8))
        #expect(RegexLiterals(pattern: "^Bjö*").prefix == Array("Bj".utf8))
        #expect(RegexLiterals(pattern: "^The .*").prefix == Array("The ".utf8))
        let alternation = RegexLiterals(pattern: "^a|b")
        #expect(alternation.whole == nil && alternation.prefix.isEmpty)
        #expect(RegexLiterals(pattern: "(?i)^live").prefix.isEmpty)
        #expect(RegexLiterals(pattern: "a.c").whole == nil)
    }
}
