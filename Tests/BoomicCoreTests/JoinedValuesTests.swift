import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// A file's several GENRE (ALBUMARTIST, COMPOSER) values are one text joined with "; " in the
/// library; splitting gives them back, and a match sees each of them.
@Suite struct JoinedValuesTests {
    static func split(_ text: String) -> [String] {
        var out: [String] = []
        SongField.forEachJoinedValue(text) { out.append($0) }
        return out
    }

    @Test func splitsOnlyOnSemicolonSpace() {
        #expect(Self.split("Jazz") == ["Jazz"])
        #expect(Self.split("Jazz; Fusion") == ["Jazz", "Fusion"])
        #expect(Self.split("Rock;Pop") == ["Rock;Pop"])
        #expect(Self.split("; Ärger; ; Ω; ") == ["Ärger", "Ω"])
        #expect(Self.split("").isEmpty)
        #expect(Self.split("; ").isEmpty)
        #expect(Self.split("a;") == ["a;"])
    }

    /// The law: values without the separator, joined as the import joins them, split back.
    @Test(arguments: Seeds.list(4, from: 9_100))
    func splitUndoesTheJoin(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pool = ["Jazz", "a;b", "Ω", "x ;y", ";", " lead", "trail ", "E\u{301}", "日本"]
        for _ in 0..<200 {
            let values = rng.subset(of: pool, max: 5)
            #expect(Self.split(values.joined(separator: "; ")) == values, "\(Seeds.replay(seed)): \(values)")
        }
    }

    @Test func aMatchSeesEachJoinedValue() throws {
        var song = Song(id: SongID(UUID()), path: "/m/a.flac")
        song.genre = "Jazz; Fusion"
        song.composer = "Bill Evans"
        func ls(_ q: String) throws -> Bool { QueryMatcher(try QueryParser.parse([q]).query).matches(song) }
        #expect(try ls("genre:=Jazz"))
        #expect(try ls("genre:=Fusion"))
        #expect(try ls("genre:=Jazz; Fusion"))
        #expect(try !ls("genre:=Fus"))
        #expect(try ls("genre::^Fusion$"))
        #expect(try ls("genre:z; F"))
        #expect(try !ls("composer:=Bill"))
        #expect(SongField.genre.matchValue(in: song) == .strings(["Jazz", "Fusion"]))
        #expect(SongField.composer.matchValue(in: song) == .string("Bill Evans"))
        #expect(SongField.title.matchValue(in: song) == .null)
    }
}
