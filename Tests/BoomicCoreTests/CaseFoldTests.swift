import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Full case folding, as ICU folds for MPD's search: against Python's `str.casefold` (the same
/// CaseFolding.txt) on every scalar it folds, and its laws on random text.
@Suite("Case folding")
struct CaseFoldTests {
    @Test(arguments: [
        ("Straße", "strasse"), ("STRASSE", "strasse"), ("ẞ", "ss"), ("ﬁnal", "final"), ("ΣΟΦΟΣ", "σοφοσ"),
        ("σοφος", "σοφοσ"), ("µ", "μ"), ("ſ", "s"), ("İ", "i\u{307}"), ("K", "k"), ("Ꭰꭰ", "ᎠᎠ"), ("Motörhead", "motörhead"),
        ("ᾳ", "αι"), ("ABC def", "abc def"), ("", ""),
    ])
    func knownFoldings(text: String, folded: String) {
        #expect(Array(CaseFold.full(text).unicodeScalars) == Array(folded.unicodeScalars))
    }

    /// Every scalar Python's `casefold` changes is folded alike (scalars as numbers, so that no
    /// normalisation on either side can hide a difference).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func everyScalarFoldsAsPythonFoldsIt() throws {
        let script = """
            import sys
            for cp in range(0x110000):
                if 0xD800 <= cp < 0xE000: continue
                c = chr(cp)
                if c.casefold() != c: print(cp, *[ord(x) for x in c.casefold()])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count > 1_400)
        var differing: [String] = []
        for line in lines {
            let numbers = line.split(separator: " ").compactMap { UInt32($0) }
            let scalar = Unicode.Scalar(numbers[0])!
            let ours = CaseFold.full(String(Character(scalar))).unicodeScalars.map(\.value)
            if ours != Array(numbers.dropFirst()) {
                differing.append("U+\(String(numbers[0], radix: 16, uppercase: true)): \(ours) ≠ \(Array(numbers.dropFirst()))")
            }
        }
        #expect(differing.isEmpty, "\(differing.count) scalars: \(differing.prefix(10))")
    }

    /// Folding is idempotent, works scalar by scalar (the fold of a concatenation is the
    /// concatenation of the folds), and does not see case: text and its upper case fold alike
    /// wherever upper-casing keeps the letters (not for the dotless ı, whose capital is I).
    @Test(arguments: [1, 2, 3, 4, 5])
    func lawsOnRandomText(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pool: [Unicode.Scalar] = Array("aZß ẞﬁΣσςµſKǰΐᾳİꭰᎠÖöé\u{301}ДдŉǅǄ𐐀𐐨-1".unicodeScalars)
        for _ in 0..<500 {
            func text() -> String {
                var s = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 0...8, using: &random) { s.append(pool.randomElement(using: &random)!) }
                return String(s)
            }
            let a = text(), b = text()
            let folded = CaseFold.full(a)
            #expect(CaseFold.full(folded) == folded, "seed \(seed): \(a.debugDescription)")
            #expect(Array((CaseFold.full(a + b)).unicodeScalars) == Array((folded + CaseFold.full(b)).unicodeScalars),
                    "seed \(seed): \(a.debugDescription) + \(b.debugDescription)")
            if !a.unicodeScalars.contains("İ") {
                #expect(CaseFold.full(a.uppercased()) == folded, "seed \(seed): \(a.debugDescription)")
            }
        }
    }
}
