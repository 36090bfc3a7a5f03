import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Printing a taglist gives clauses that parse back to the same taglist, and the stored (JSON)
/// form reads back the same too, on random taglists full of characters that need escaping.
@Suite("Taglist printing")
struct TaglistRoundTripTests {
    @Test("print then parse gives the same taglist, on 2,000 random taglists")
    func printParse() throws {
        var checked = 0
        for seed in TaglistModel.seeds(2_000, salt: 0x9817) {
            var rng = SplitMix64(seed: seed)
            let t = TaglistModel.taglist(&rng, tricky: true)
            do {
                let again = try Taglist.parse(name: t.name, clauses: t.arguments)
                #expect(again == t, "seed \(seed): \(t)")
            } catch {
                Issue.record("seed \(seed): \(t) does not parse back: \(error.message)")
            }
            checked += 1
        }
        #expect(checked >= (Seeds.replayed == nil ? 2_000 : 0))
    }

    @Test("the stored form is the clauses as typed, and reads back the same")
    func codable() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let mix = try Taglist.parse(name: "mix", clauses: ["+ (#english, #French)", "^#french", "-@year(<2000)"])
        let json = String(decoding: try encoder.encode(mix), as: UTF8.self)
        #expect(json == #"{"clauses":["+#english,#french","-#french","-@year:<2000"],"name":"mix"}"#)
        #expect(try JSONDecoder().decode(Taglist.self, from: Data(json.utf8)) == mix)

        for seed in TaglistModel.seeds(500, salt: 0xC0DE) {
            var rng = SplitMix64(seed: seed)
            let t = TaglistModel.taglist(&rng, tricky: true)
            let back = try? JSONDecoder().decode(Taglist.self, from: encoder.encode(t))
            #expect(back == t, "seed \(seed): \(t)")
        }

        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Taglist.self, from: Data(#"{"clauses":["+@yeer:1"],"name":"x"}"#.utf8))
        }
    }

    @Test("descriptions read as they are typed", arguments: [
        (Rule.tag("english"), "#english"),
        (.tag("hip hop"), "#hip hop"),
        (.tag("a,b"), "#a\\,b"),
        (.tagPrefix("instruments"), "#instruments:"),
        (.tag("instruments:piano"), "#instruments:piano"),
        (.field(.artists, .contains("Miles Davis")), "@artists:Miles Davis"),
        (.field(.title, .contains("Song (live)")), "@title:Song (live)"),
        (.field(.title, .contains("a)")), "@title:a\\)"),
        (.field(.title, .contains("=x")), "@title:\\=x"),
        (.field(.title, .contains(" x ")), "@title:\\ x\\ "),
        (.field(.genre, .compare(.notEqual, .text("Jazz"))), "@genre:!=Jazz"),
        (.field(.rating, .compare(.greater, .number(3))), "@rating:>3"),
        (.field(.year, .compare(.equal, .number(1969))), "@year:=1969"),
        (.field(.year, .range(lower: 1990, upper: 1999)), "@year:1990..1999"),
        (.field(.year, .range(lower: nil, upper: 1999)), "@year:..1999"),
        (.field(.duration, .compare(.less, .number(90.25))), "@duration:<90.25"),
        (.field(.duration, .compare(.less, .number(1e20))), "@duration:<1e+20"),
        (.field(.favorite, .compare(.equal, .bool(true))), "@favorite:=true"),
        (.count("instruments", .compare(.lessOrEqual, .number(2))), "count(#instruments:) <= 2"),
        (.count("instruments", .range(lower: 1, upper: 3)), "count(#instruments:) 1..3"),
    ] as [(Rule, String)])
    func ruleDescriptions(rule: Rule, text: String) throws {
        #expect(rule.description == text)
        #expect(try Rule(parsing: text) == rule)
    }

    @Test("a taglist prints as shell arguments")
    func taglistDescription() throws {
        let t = try Taglist.parse(name: "mix", clauses: ["+#english,#french", "-#french", "-@year(<2000)", "+@title:it's"])
        #expect(t.description == #"'+#english,#french' '-#french' '-@year:<2000' '+@title:it'\''s'"#)
        #expect(t.arguments == ["+#english,#french", "-#french", "-@year:<2000", "+@title:it's"])
    }
}
