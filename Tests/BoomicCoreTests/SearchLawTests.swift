import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The search against `SearchReference` on random libraries and random text, and hostile input.
@Suite struct SearchLawTests {
    /// Names with what real tags hold: accents precomposed and combining, other scripts,
    /// punctuation, apostrophes, full-width letters, half-width kana, controls.
    static let pool = Samples.artists + Samples.albums + Samples.titles + Samples.composers + [
        "Mötley Crüe", "Motley Crue", "Guns N’ Roses", "Don't Stop", "AC DC", "acdc", "Jay-Z", "blink-182",
        "e\u{301}te\u{301}", "été", "ÉTÉ", "Straße", "STRASSE", "ﬁne", "Ｆｕｌｌ Ｗｉｄｔｈ", "ｶﾞｷﾞ", "한국어",
        "\u{1100}\u{1161}", "Ω", "ΣΊΣΥΦΟΣ", "Σίσυφος", "…And Justice for All", "Love — Live", "x\u{0}y",
        "tab\there", "", " ", "!!!", "\u{301}", "İstanbul", "Ørsted", "Łódź", "ǅemal", "Ⅻ", "½ Life", "🎷 Sax",
    ]

    static func randomLibrary(_ rng: inout SplitMix64) -> DataBasis {
        let n = Int.random(in: 0...25, using: &rng)
        return DataBasis(songs: (0..<n).map { i in
            var s = Song(id: songID(Int.random(in: 1...40, using: &rng)), path: "/m/\(rng.pick(pool))\(i).flac")
            if rng.chance(0.9) { s.title = rng.pick(pool) }
            s.artists = rng.subset(of: Array(pool.shuffled(using: &rng).prefix(6)), max: 2)
            if rng.chance(0.85) { s.album = rng.pick(Samples.albums + pool.prefix(5)) }
            if rng.chance(0.3) { s.albumartist = rng.pick(pool) }
            s.compilation = rng.chance(0.1)
            if rng.chance(0.3) { s.composer = rng.pick(pool) }
            if rng.chance(0.5) { s.track = Int.random(in: 1...3, using: &rng) }
            return s
        })
    }

    /// Text people type: a word or two of a name, cut short, cased or accented differently.
    static func randomText(_ rng: inout SplitMix64) -> String {
        var words: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            var w = rng.pick(rng.pick(pool).split(separator: " ").map(String.init) + ["a", "o", "e", "zz"])
            if rng.chance(0.4), w.count > 1 { w = String(w.prefix(Int.random(in: 1..<w.count, using: &rng))) }
            if rng.chance(0.3), w.count > 2 { w = String(w.dropFirst()) }
            if rng.chance(0.3) { w = w.uppercased() }
            if rng.chance(0.2) { w = w.folding(options: .diacriticInsensitive, locale: nil) }
            words.append(w)
        }
        return words.joined(separator: rng.chance(0.2) ? "/" : " ")
    }

    @Test func agreesWithTheReference() throws {
        var checked = 0, found = 0
        for seed in Seeds.all {
            var rng = SplitMix64(seed: seed)
            let basis = Self.randomLibrary(&rng)
            let items = (0..<Int.random(in: 0...3, using: &rng)).map { i in
                SearchItem(kind: rng.chance(0.5) ? .taglist : .playlist, id: "i\(i)", name: rng.pick(Self.pool))
            }
            for _ in 0..<8 {
                let text = Self.randomText(&rng)
                let limit: Int? = rng.chance(0.5) ? nil : Int.random(in: 0...6, using: &rng)
                let expected = SearchReference.search(text, in: basis, items: items, limit: limit)
                let got = try? basis.search(text, items: items, limit: limit)
                #expect(got == expected, "seed \(seed), text '\(text)', limit \(String(describing: limit))")
                if got != nil { checked += 1 }
                if got?.isEmpty == false { found += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(800))
        #expect(found >= Seeds.atLeast(300), "\(found) searches found something")
    }

    /// Folding one scalar at a time (with the cache) equals folding the whole string.
    @Test func scalarFoldingEqualsWholeStringFolding() {
        let alphabet = Array(Self.pool.joined().unicodeScalars) + ["\u{308}", "\u{FF9E}", "\u{FF9F}", "\u{3099}", "\u{11A8}",
                                                                   "\u{FE0F}", "\u{200D}", "ß", "ǰ", "ΐ", "ﬃ", "’", "ʼ"]
        var text = SearchText()
        for seed in Seeds.all {
            var rng = SplitMix64(seed: seed)
            for _ in 0..<20 {
                var s = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 0...12, using: &rng) { s.append(rng.pick(alphabet)) }
                let string = String(s)
                let expected = SearchReference.words(string)
                var w: [UInt8] = [], q: [UInt8] = []
                text.append(string, words: &w, squash: &q)
                #expect(Array(String(decoding: w, as: UTF8.self).unicodeScalars) == SearchReference.phrase(expected),
                        "seed \(seed): \(string.unicodeScalars.map { String($0.value, radix: 16) })")
                var scratch = SearchText.Scratch()
                text.appendSquash(string, to: &scratch)
                #expect(Array(scratch.bytes) == q)
            }
        }
    }

    @Test(arguments: [
        String(repeating: "a", count: 100_000),
        String(repeating: "blue ", count: 20_000),
        (0..<20).map { _ in "\u{301}" }.joined(),
        "\u{0}\u{1}\u{7}\u{1B}[31mred",
        "\u{301} blue",
        "\u{FEFF}\u{200B}miles\u{200D}",
        String(repeating: "é", count: 10_000),
        "\u{10FFFF}\u{E000}",
    ])
    func hostileTextNeverCrashes(_ text: String) {
        var rng = SplitMix64(seed: 1)
        let basis = Self.randomLibrary(&rng)
        let hits = try? basis.search(text, limit: 5)
        #expect(hits == SearchReference.search(text, in: basis, limit: 5))
    }

    @Test func hostileLibraryNeverCrashes() throws {
        var files = [facts("/m/x.flac", title: "\u{0}", artists: ["", "\u{301}"], album: ""),
                     facts("/m/y.flac", title: String(repeating: "ß", count: 5_000), artists: ["ｶﾞ"], album: "\u{1F3B7}")]
        files[1].albumartist = ""
        let basis = library(files)
        for text in ["ss", "ｶﾞ", "カ", "a", "\u{301}"] {
            #expect(try basis.search(text) == SearchReference.search(text, in: basis))
        }
    }
}
