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
                let again = try Taglist.parse(name: t.name, clauses: t.arguments, userFields: TaglistModel.userFieldNames)
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

        // The log is read with no library at hand: a name no built-in field has is a user field
        // (it was checked against the library's when typed). What no field can be is refused.
        let stored = try JSONDecoder().decode(Taglist.self, from: Data(#"{"clauses":["+@yeer:1,@energy:>5"],"name":"x"}"#.utf8))
        #expect(stored.clauses == [.positive(.userField("yeer", .contains("1")), .userField("energy", .compare(.greater, .number(5))))])
        for bad in ["+@year:abc", "+@skipcount:x", "+@id:1", "+@Not A Name:1"] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(Taglist.self, from: Data(#"{"clauses":["\#(bad)"],"name":"x"}"#.utf8))
            }
        }
    }

    @Test("user field rules read as they are typed, and as stored", arguments: [
        (Rule.userField("mood", .contains("happy")), "@mood:happy"),
        (.userField("mood", .compare(.equal, .text("Happy"))), "@mood:=Happy"),
        (.userField("mood", .compare(.notEqual, .text("sad"))), "@mood:!=sad"),
        (.userField("energy", .compare(.greater, .number(5))), "@energy:>5"),
        (.userField("energy", .range(lower: 3, upper: 7)), "@energy:3..7"),
        (.userField("energy", .range(lower: nil, upper: 7.5)), "@energy:..7.5"),
        // A text that would read as a number keeps its escape; a number alone is a substring.
        (.userField("code", .contains("5")), "@code:5"),
        (.userField("code", .compare(.equal, .text("5"))), "@code:=\\5"),
        (.userField("code", .compare(.less, .text("-2"))), "@code:<\\-2"),
        (.userField("code", .contains("1..2")), "@code:\\1..2"),
        (.userField("code", .contains("1..2..3")), "@code:1..2..3"),
        (.userField("code", .compare(.greater, .text("5 stars"))), "@code:>5 stars"),
        (.userField("yeer", .contains("1969")), "@yeer:1969"),
    ] as [(Rule, String)])
    func userRuleDescriptions(rule: Rule, text: String) throws {
        #expect(rule.description == text)
        #expect(try Rule(parsing: text, userFields: ["mood", "energy", "code", "yeer"]) == rule)
        #expect(try Rule(stored: text) == rule)
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
