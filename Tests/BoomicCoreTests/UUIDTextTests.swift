import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// `UUID(text:)` reads a well-formed UUID text as Foundation's `UUID(uuidString:)` does, and
/// nothing else: Foundation's `sscanf` also takes a digit pair with a leading space or sign
/// (`" 56FA774-…"`), which no log ever writes.
@Suite("UUID text")
struct UUIDTextTests {
    @Test("agrees with UUID(uuidString:) on UUIDs, refuses near misses", arguments: Seeds.list(3, from: 0x1D))
    func agreesWithFoundation(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("0123456789abcdefABCDEFg-x ")
        for _ in 0..<2_000 {
            var text = Array(UUID().uuidString)
            if Bool.random(using: &rng) { text = Array(String(text).lowercased()) }
            // Spoil some: a character replaced, one dropped or one added.
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: text[Int.random(in: 0..<text.count, using: &rng)] = rng.pick(alphabet)
            case 1: text.remove(at: Int.random(in: 0..<text.count, using: &rng))
            case 2: text.insert(rng.pick(alphabet), at: Int.random(in: 0...text.count, using: &rng))
            default: break
            }
            let s = String(text)
            let wellFormed = text.count == 36 && text.indices.allSatisfy { i in
                [8, 13, 18, 23].contains(i) ? text[i] == "-" : text[i].isHexDigit
            }
            if wellFormed {
                #expect(UUID(text: s) != nil && UUID(text: s) == UUID(uuidString: s), "\(Seeds.replay(seed)): \(s)")
            } else {
                #expect(UUID(text: s) == nil, "\(Seeds.replay(seed)): \(s)")
            }
        }
        #expect(UUID(text: "") == nil && UUID(text: String(repeating: "é", count: 36)) == nil)
    }

    @Test("lowercaseText is uuidString in lower case, and reads back")
    func lowercaseTextIsFoundations() {
        for _ in 0..<1_000 {
            let u = UUID()
            #expect(u.lowercaseText == u.uuidString.lowercased())
            #expect(UUID(text: u.lowercaseText) == u)
        }
    }
}
