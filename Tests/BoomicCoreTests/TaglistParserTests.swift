import BoomicTestSupport
import Testing
@testable import BoomicCore

/// Taglist clause parsing (DESIGN §5): a table of clauses and the tree each must give, a table of
/// malformed clauses and the exact message each must give, and hostile input.
@Suite("Taglist parser")
struct TaglistParserTests {
    static func number(_ op: Comparison.Operator, _ n: Double) -> Comparison { .compare(op, .number(n)) }
    static func text(_ op: Comparison.Operator, _ t: String) -> Comparison { .compare(op, .text(t)) }

    @Test("clauses parse to the expected tree", arguments: [
        // Tags: lower-cased as songs store them; nested; a trailing colon for any child.
        ("+#english", .positive(.tag("english"))),
        ("+#English", .positive(.tag("english"))),
        ("+#english,#french", .positive(.tag("english"), .tag("french"))),
        ("+ (#english, #french)", .positive(.tag("english"), .tag("french"))),
        ("  +#english ,  #french  ", .positive(.tag("english"), .tag("french"))),
        ("-#french", .negative(.tag("french"))),
        ("^#french", .negative(.tag("french"))),
        ("+#instruments:piano", .positive(.tag("instruments:piano"))),
        ("+#Instruments:Keys:Organ", .positive(.tag("instruments:keys:organ"))),
        ("+#instruments:", .positive(.tagPrefix("instruments"))),
        ("+#instruments:keys:", .positive(.tagPrefix("instruments:keys"))),
        ("+#instruments: ,#jazz", .positive(.tagPrefix("instruments"), .tag("jazz"))),
        ("+#hip hop", .positive(.tag("hip hop"))),
        ("+#français", .positive(.tag("français"))),
        ("+#rock\\,pop", .positive(.tag("rock,pop"))),
        ("+#a\\(b\\)", .positive(.tag("a(b)"))),
        ("+#\\ x", .positive(.tag(" x"))),
        ("+#a\\:b", .positive(.tag("a:b"))),
        // Text fields: a substring unless an operator says otherwise.
        ("+@artist:miles", .positive(.field(.artists, .contains("miles")))),
        ("+@ARTIST:Miles Davis", .positive(.field(.artists, .contains("Miles Davis")))),
        ("+@artist: miles ", .positive(.field(.artists, .contains("miles")))),
        ("+@title:Song (live)", .positive(.field(.title, .contains("Song (live)")))),
        ("+(@title:Song (live))", .positive(.field(.title, .contains("Song (live)")))),
        ("+@title:a\\,b", .positive(.field(.title, .contains("a,b")))),
        ("+@title:a:b", .positive(.field(.title, .contains("a:b")))),
        ("+@title:\\=x", .positive(.field(.title, .contains("=x")))),
        ("+@title:a\\)", .positive(.field(.title, .contains("a)")))),
        ("+@title:\\ x\\ ", .positive(.field(.title, .contains(" x ")))),
        ("+@title:1990..1999", .positive(.field(.title, .contains("1990..1999")))),
        ("+@title(blue)", .positive(.field(.title, .contains("blue")))),
        ("+@genre:=Jazz", .positive(.field(.genre, text(.equal, "Jazz")))),
        ("+@genre:= Jazz", .positive(.field(.genre, text(.equal, "Jazz")))),
        ("+@genre:!=jazz", .positive(.field(.genre, text(.notEqual, "jazz")))),
        ("+@genre:==x", .positive(.field(.genre, text(.equal, "=x")))),
        ("+@date:>=1990-05", .positive(.field(.date, text(.greaterOrEqual, "1990-05")))),
        ("+@album:<m", .positive(.field(.album, text(.less, "m")))),
        ("+@tags:jazz", .positive(.field(.tags, .contains("jazz")))),
        // Numeric fields: a number, a comparison or a range.
        ("+@rating:>3", .positive(.field(.rating, number(.greater, 3)))),
        ("+@rating:>=4", .positive(.field(.rating, number(.greaterOrEqual, 4)))),
        ("+@rating:<2", .positive(.field(.rating, number(.less, 2)))),
        ("+@rating:<=2", .positive(.field(.rating, number(.lessOrEqual, 2)))),
        ("+@rating:!=0", .positive(.field(.rating, number(.notEqual, 0)))),
        ("+@year(>2010)", .positive(.field(.year, number(.greater, 2010)))),
        ("+@year( < 2010 )", .positive(.field(.year, number(.less, 2010)))),
        ("-@year(<2000)", .negative(.field(.year, number(.less, 2000)))),
        ("+@year:1990..1999", .positive(.field(.year, .range(lower: 1990, upper: 1999)))),
        ("+@year:1990 .. 1999", .positive(.field(.year, .range(lower: 1990, upper: 1999)))),
        ("+@year(1990..1999)", .positive(.field(.year, .range(lower: 1990, upper: 1999)))),
        ("+@year:1990..", .positive(.field(.year, .range(lower: 1990, upper: nil)))),
        ("+@year:..1999", .positive(.field(.year, .range(lower: nil, upper: 1999)))),
        ("+@year:1969..1969", .positive(.field(.year, .range(lower: 1969, upper: 1969)))),
        ("+@year:1969", .positive(.field(.year, number(.equal, 1969)))),
        ("+@year:=1969", .positive(.field(.year, number(.equal, 1969)))),
        ("+@replaygain_track_gain:-6.5..0", .positive(.field(.replaygainTrackGain, .range(lower: -6.5, upper: 0)))),
        ("+@replaygain_track_gain:<-6", .positive(.field(.replaygainTrackGain, number(.less, -6)))),
        ("+@length:>3e2", .positive(.field(.duration, number(.greater, 300)))),
        ("+@duration:<=90.25", .positive(.field(.duration, number(.lessOrEqual, 90.25)))),
        // Truth values.
        ("+@favorite:yes", .positive(.field(.favorite, .compare(.equal, .bool(true))))),
        ("+@comp:false", .positive(.field(.compilation, .compare(.equal, .bool(false))))),
        ("+@favorite:=1", .positive(.field(.favorite, .compare(.equal, .bool(true))))),
        ("+@favorite:!=TRUE", .positive(.field(.favorite, .compare(.notEqual, .bool(true))))),
        // Counts of a tag's children.
        ("+count(#instruments:) <= 2", .positive(.count("instruments", number(.lessOrEqual, 2)))),
        ("+count(#instruments:)>1", .positive(.count("instruments", number(.greater, 1)))),
        ("+count( #Instruments: ) 1..3", .positive(.count("instruments", .range(lower: 1, upper: 3)))),
        ("+count (#instruments:keys:) 0", .positive(.count("instruments:keys", number(.equal, 0)))),
        ("-count(#mood:) != 1", .negative(.count("mood", number(.notEqual, 1)))),
        // Mixed.
        ("+#jazz, @rating:>3, count(#instruments:) <= 2",
         .positive(.tag("jazz"), .field(.rating, number(.greater, 3)), .count("instruments", number(.lessOrEqual, 2)))),
        ("^(@year:..1970,#old)", .negative(.field(.year, .range(lower: nil, upper: 1970)), .tag("old"))),
        // The examples of Documentation/taglists.md.
        ("+@year(>2010),@playcount:0", .positive(.field(.year, number(.greater, 2010)), .field(.playcount, number(.equal, 0)))),
        ("-@title:live,#live", .negative(.field(.title, .contains("live")), .tag("live"))),
        ("+@favorite:yes,@rating:>=4", .positive(.field(.favorite, .compare(.equal, .bool(true))), .field(.rating, number(.greaterOrEqual, 4)))),
        ("+@title:Live\\, 1970", .positive(.field(.title, .contains("Live, 1970")))),
        ("+@rating:4..", .positive(.field(.rating, .range(lower: 4, upper: nil)))),
        ("+count(#mood:) 1..3", .positive(.count("mood", .range(lower: 1, upper: 3)))),
    ] as [(String, Clause)])
    func parses(text: String, expected: Clause) throws {
        #expect(try Clause(parsing: text) == expected)
    }

    @Test("a taglist reads one clause per argument")
    func taglist() throws {
        let t = try Taglist.parse(name: "mix", clauses: ["+#english,#french", "-#french", "-@year(<2000)"])
        #expect(t == Taglist(name: "mix", clauses: [
            .positive(.tag("english"), .tag("french")),
            .negative(.tag("french")),
            .negative(.field(.year, Self.number(.less, 2000))),
        ]))
        #expect(try Taglist.parse(name: "everything", clauses: []) == Taglist(name: "everything", clauses: []))
        #expect(try Rule(parsing: "#instruments:") == .tagPrefix("instruments"))
        #expect(try Rule(parsing: " @year:<2000 ") == .field(.year, Self.number(.less, 2000)))
    }

    @Test("bad clauses are one-line errors that quote the clause, give the offset and say what is accepted", arguments: [
        ("", 0, "a clause starts with + (songs must satisfy it) or - or ^ (songs are left out when they satisfy every such clause), e.g. +#jazz"),
        ("#jazz", 0, "a clause starts with + (songs must satisfy it) or - or ^ (songs are left out when they satisfy every such clause), e.g. +#jazz"),
        ("+", 1, "expected a rule: #tag, #tag: (any child), @field:value, @field(comparison) or count(#tag:) <= n"),
        ("+jazz", 1, "expected a rule: #tag, #tag: (any child), @field:value, @field(comparison) or count(#tag:) <= n"),
        ("+#a,", 4, "expected a rule: #tag, #tag: (any child), @field:value, @field(comparison) or count(#tag:) <= n"),
        ("+((#a))", 2, "expected a rule: #tag, #tag: (any child), @field:value, @field(comparison) or count(#tag:) <= n"),
        ("+#", 2, "expected a tag name after '#', e.g. #jazz or #instruments:piano"),
        ("+#:", 2, "expected a tag name after '#', e.g. #jazz or #instruments:piano"),
        ("+# ,#a", 2, "expected a tag name after '#', e.g. #jazz or #instruments:piano"),
        ("+#a::b", 4, "a tag path has an empty part; write #parent:child"),
        ("+#xx\\:", 2, "a tag path has an empty part; write #parent:child"),
        ("+#a #b", 4, "expected ',' between rules, or the end of the clause"),
        ("+#english #french", 10, "expected ',' between rules, or the end of the clause"),
        ("+count(#instruments:)", 21, "expected a comparison after count(#instruments:), e.g. <= 2"),
        ("+#a)", 3, "unmatched ')'; write \\) for a literal parenthesis"),
        ("+@title:a)", 9, "unmatched ')'; write \\) for a literal parenthesis"),
        ("+(#a", 4, "expected ',' between rules, or ')' to close the '(' at offset 1"),
        ("+(#a #b)", 5, "expected ',' between rules, or ')' to close the '(' at offset 1"),
        ("+@yeer:1969", 2, "unknown field 'yeer'; did you mean 'year'?"),
        ("-@yeer(<2000)", 2, "unknown field 'yeer'; did you mean 'year'?"),
        ("+@:1", 2, "expected a field name after '@', e.g. @year:1969 or @artist:miles"),
        ("+@year", 6, "expected ':' or '(' after '@year', e.g. @year:1969 or @year(>2010)"),
        ("+@year>2000", 6, "expected ':' or '(' after '@year', e.g. @year:1969 or @year(>2010)"),
        ("+@year:abc", 7, "'abc' is not a number; write e.g. 1969, <2000 or 1990..1999"),
        ("+@year:19x0", 7, "'19x0' is not a number; write e.g. 1969, <2000 or 1990..1999"),
        ("+@year:1990..19x9", 13, "'19x9' is not a number; write e.g. 1969, <2000 or 1990..1999"),
        ("+@year:.5", 7, "'.5' is not a number; write e.g. 1969, <2000 or 1990..1999"),
        ("+@year:nan", 7, "'nan' is not a number; write e.g. 1969, <2000 or 1990..1999"),
        ("+@year:", 7, "expected a number, e.g. 1969, <2000 or 1990..1999"),
        ("+@year:<", 8, "expected a number, e.g. 1969, <2000 or 1990..1999"),
        ("+@year:..", 7, "a range needs at least one end, e.g. 1990..1999, 2000.. or ..1999"),
        ("+@year:1999..1990", 7, "the range 1999..1990 is empty; write the lower end first"),
        ("+@year(<2000", 12, "expected ')' to close the '(' at offset 6"),
        ("+@year((<2000))", 7, "expected a number, e.g. 1969, <2000 or 1990..1999"),
        ("+@year:1e999", 7, "'1e999' is too large"),
        ("+@favorite:maybe", 11, "'favorite' is true or false (or yes, no, 1, 0)"),
        ("+@favorite:>0", 11, "'favorite' is true or false; compare it with = or !="),
        ("+@title:", 8, "expected a value, e.g. @artist:miles, @genre:=jazz or @year:>2010"),
        ("+@title:,#a", 8, "expected a value, e.g. @artist:miles, @genre:=jazz or @year:>2010"),
        ("+@title:=", 9, "expected a text after '='"),
        ("+@title:a\\", 9, "a '\\' at the end escapes nothing; write \\\\ for a backslash"),
        ("+count(#instruments) <= 2", 7, "count takes a tag ending in ':' and counts its children, e.g. count(#instruments:)"),
        ("+count(@year:1) <= 2", 7, "count takes a tag ending in ':' and counts its children, e.g. count(#instruments:)"),
        ("+count #a:", 7, "expected '(' after count, e.g. count(#instruments:) <= 2"),
        ("+counter", 6, "expected '(' after count, e.g. count(#instruments:) <= 2"),
        ("+count(#a:", 10, "expected ')' to close the '(' at offset 6"),
        ("+count(#a:)", 11, "expected a comparison after count(#a:), e.g. <= 2"),
        ("+count(#a:) <= x", 15, "'x' is not a number; write e.g. 1969, <2000 or 1990..1999"),
    ] as [(String, Int, String)])
    func rejects(text: String, offset: Int, reason: String) {
        let expected = TaglistError.badClause(text, offset: offset, reason: reason)
        #expect(throws: expected) { try Clause(parsing: text) }
        #expect(throws: expected) { try Taglist.parse(name: "t", clauses: ["+#ok", text]) }
        #expect(expected.errorDescription == "bad taglist clause '\(text)' at offset \(offset): \(reason)")
    }

    @Test("user fields: text as QUERY reads it, numbers when the rule compares numbers", arguments: [
        ("+@mood:happy", .positive(.userField("mood", .contains("happy")))),
        ("+@Mood:=Happy", .positive(.userField("mood", Self.text(.equal, "Happy")))),
        ("+@mood(!=sad)", .positive(.userField("mood", Self.text(.notEqual, "sad")))),
        ("+@mood:<m", .positive(.userField("mood", Self.text(.less, "m")))),
        ("+@energy:>5", .positive(.userField("energy", Self.number(.greater, 5)))),
        ("+@energy(>= 5 )", .positive(.userField("energy", Self.number(.greaterOrEqual, 5)))),
        ("+@energy:=-2.5,#jazz", .positive(.userField("energy", Self.number(.equal, -2.5)), .tag("jazz"))),
        ("+@energy:3..7", .positive(.userField("energy", .range(lower: 3, upper: 7)))),
        ("+@energy: 3 .. 7 ", .positive(.userField("energy", .range(lower: 3, upper: 7)))),
        ("+@energy(..7)", .positive(.userField("energy", .range(lower: nil, upper: 7)))),
        ("+@energy:3..", .positive(.userField("energy", .range(lower: 3, upper: nil)))),
        ("+@energy:5", .positive(.userField("energy", .contains("5")))),
        ("+@energy:>5 stars", .positive(.userField("energy", Self.text(.greater, "5 stars")))),
        ("+@energy:>\\5", .positive(.userField("energy", Self.text(.greater, "5")))),
        ("+@energy:1..2..3", .positive(.userField("energy", .contains("1..2..3")))),
        ("+@energy:..", .positive(.userField("energy", .contains("..")))),
        ("+@energy:>1e999", .positive(.userField("energy", Self.text(.greater, "1e999")))),
        ("-@yeer:1969", .negative(.userField("yeer", .contains("1969")))),
        ("+@year:1969", .positive(.field(.year, Self.number(.equal, 1969)))),
    ] as [(String, Clause)])
    func userFields(text: String, expected: Clause) throws {
        let names: Set<String> = ["mood", "energy", "yeer"]
        #expect(try Clause(parsing: text, userFields: names) == expected)
        #expect(try Clause(stored: text) == expected)
        #expect(try Clause(parsing: expected.description, userFields: names) == expected)
    }

    @Test("a name that is no user field of the library is refused as QUERY refuses it", arguments: [
        ("+@moood:x", 2, "unknown field 'moood'; did you mean 'mood'?"),
        ("+@yeer:1", 2, "unknown field 'yeer'; did you mean 'year'?"),
        ("+@skipcont:1", 2, "unknown field 'skipcont'; did you mean 'skipcount'?"),
        ("+@energy:7..3", 9, "the range 7..3 is empty; write the lower end first"),
        ("+@mood:", 7, "expected a value, e.g. @artist:miles, @genre:=jazz or @year:>2010"),
        ("+@mood:>", 8, "expected a text after '>'"),
    ] as [(String, Int, String)])
    func userFieldMistakes(text: String, offset: Int, reason: String) {
        let names: Set<String> = ["mood", "energy"]
        #expect(throws: TaglistError.badClause(text, offset: offset, reason: reason)) { try Clause(parsing: text, userFields: names) }
        #expect(throws: TaglistError.self) { try Taglist.parse(name: "t", clauses: [text], userFields: names) }
    }

    @Test("stored rules name any user field, but nothing no field can be")
    func storedRules() throws {
        #expect(try Rule(stored: "@anything_2:x") == .userField("anything_2", .contains("x")))
        for bad in ["@skipcount:x", "@last_played:2026-13", "@id:1", "@2x:1", "@année:1", "@yeer"] {
            #expect(throws: TaglistError.self, "\(bad)") { try Rule(stored: bad) }
        }
        // Typed, the same name is refused: no song has it.
        #expect(throws: TaglistError.self) { try Rule(parsing: "@anything_2:x") }
    }

    @Test("an unknown field with no close name lists the known ones")
    func unknownFieldWithoutSuggestion() {
        #expect {
            try Clause(parsing: "+@xyzzyplugh:1")
        } throws: { error in
            guard case .badClause(_, 2, let reason) = error as? TaglistError else { return false }
            return reason.hasPrefix("unknown field 'xyzzyplugh'; known fields are ") && reason.contains("year")
        }
    }

    @Test("a taglist needs a one-line name", arguments: [
        ("", "bad taglist name '': a taglist needs a name"),
        ("  ", "bad taglist name '  ': a taglist needs a name"),
        ("a\nb", "bad taglist name 'a\\nb': a taglist name is one line of printable characters"),
    ])
    func badNames(name: String, message: String) {
        #expect {
            try Taglist.parse(name: name, clauses: ["+#a"])
        } throws: { ($0 as? TaglistError)?.errorDescription == message }
    }

    @Test("the message quotes a long clause around the offset and escapes control characters")
    func longAndControlMessages() {
        let long = "+#" + String(repeating: "a", count: 100) + " #b"
        let e = TaglistError.badClause(long, offset: 103, reason: "r")
        #expect(e.message == "bad taglist clause '…" + String(repeating: "a", count: 39) + " #b' at offset 103: r")
        #expect(TaglistError.badClause("+#a\n\t\u{7}", offset: 3, reason: "r").message
            == "bad taglist clause '+#a\\n\\t\\u{7}' at offset 3: r")
    }

    // MARK: Hostile input

    /// A hostile clause, named in the test's output by its recipe rather than its 100,000 characters.
    struct Hostile: CustomTestStringConvertible, Sendable {
        var recipe: String
        var text: String
        var offset: Int
        var testDescription: String { recipe }
    }

    /// Each is an error, quickly; never a crash, a hang or a stack overflow.
    @Test("very long and deeply nested clauses", arguments: [
        Hostile(recipe: "+ and 100k (", text: "+" + String(repeating: "(", count: 100_000), offset: 2),
        Hostile(recipe: "+, 50k (, #a, 50k )",
                text: "+" + String(repeating: "(", count: 50_000) + "#a" + String(repeating: ")", count: 50_000), offset: 2),
        Hostile(recipe: "+@year( and 100k (", text: "+@year(" + String(repeating: "(", count: 100_000), offset: 7),
        Hostile(recipe: "+@title: and 100,001 \\", text: "+@title:" + String(repeating: "\\", count: 100_001), offset: 100_008),
        Hostile(recipe: "+count( and 100k #", text: "+count(" + String(repeating: "#", count: 100_000), offset: 8),
        Hostile(recipe: "+#, 100k a, ' x #'", text: "+#" + String(repeating: "a", count: 100_000) + " x #", offset: 100_005),
        Hostile(recipe: "+@year: and 100k 9", text: "+@year:" + String(repeating: "9", count: 100_000), offset: 7),
    ])
    func hostileErrors(_ c: Hostile) {
        #expect {
            try Clause(parsing: c.text)
        } throws: { error in
            guard let e = error as? TaglistError, case .badClause(_, let at, _) = e else { return false }
            return at == c.offset && e.message.count < 400 && !e.message.contains("\n")
        }
    }

    @Test("very long clauses that are valid parse")
    func hostileSuccesses() throws {
        let many = try Clause(parsing: "+" + Array(repeating: "#a", count: 33_333).joined(separator: ","))
        #expect(many.rules.count == 33_333)
        // A user field's value is looked at ahead (is it a number?) without copying the rest.
        let moods = try Clause(parsing: "+" + Array(repeating: "@mood:>5,@mood:1..2,@mood:x", count: 10_000).joined(separator: ","),
                               userFields: ["mood"])
        #expect(moods.rules.count == 30_000)
        let deepTag = try Clause(parsing: "+#" + String(repeating: "a:", count: 50_000))
        #expect(deepTag == .positive(.tagPrefix(Array(repeating: "a", count: 50_000).joined(separator: ":"))))
        let parens = String(repeating: "(", count: 50_000) + String(repeating: ")", count: 50_000)
        let text = try Clause(parsing: "+@title:" + parens)
        #expect(text == .positive(.field(.title, .contains(parens))))
        #expect(try Clause(parsing: text.description) == text)
        let open = String(repeating: "(", count: 100_000)
        let unbalanced = try Clause(parsing: "+@title:" + open)
        #expect(try Clause(parsing: unbalanced.description) == unbalanced)
    }

    /// Pieces that clauses are made of, so random strings get deep into the grammar.
    static let pieces = ["+", "-", "^", "#", "@", ":", ",", "(", ")", "<", ">", "=", "!", "..", ".", " ", "\\",
                         "count", "year", "rating", "title", "favorite", "artist", "tags", "yeer", "instruments",
                         "piano", "jazz", "1990", "2", "-3", "0.5", "e5", "x", "é", "Ω", "true", "'", "\n", "\t", "🎷",
                         "mood", "energy"]

    /// A sign (usually) and random pieces.
    static func randomPieces(_ rng: inout SplitMix64) -> String {
        var s = rng.chance(0.85) ? rng.pick(["+", "-", "^"]) : ""
        for _ in 0..<Int.random(in: 0...14, using: &rng) { s += rng.pick(pieces) }
        return s
    }

    /// A valid clause with up to three pieces inserted, characters deleted or replaced.
    static func mutated(_ clause: String, _ rng: inout SplitMix64) -> String {
        var chars = Array(clause)
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let i = Int.random(in: 0...chars.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: chars.insert(contentsOf: rng.pick(pieces), at: i)
            case 1: if i < chars.count { chars.remove(at: i) }
            default: if i < chars.count { chars.replaceSubrange(i...i, with: rng.pick(pieces)) }
            }
        }
        return String(chars)
    }

    @Test("random clause-ish strings: an error or a tree that prints back to itself, never a crash")
    func fuzz() {
        var rng = SplitMix64(seed: Seeds.replayed ?? 0xF022)
        var parsed = 0, failed = 0
        for i in 0..<10_000 {
            let s = rng.chance(0.5) ? Self.randomPieces(&rng) : Self.mutated(TaglistModel.clause(&rng, tricky: true).description, &rng)
            do {
                let c = try Clause(parsing: s, userFields: TaglistModel.userFieldNames)
                parsed += 1
                let again = try? Clause(parsing: c.description, userFields: TaglistModel.userFieldNames)
                #expect(again == c, "case \(i): \(s.debugDescription) printed as \(c.description.debugDescription)")
            } catch {
                failed += 1
                guard case .badClause(let quoted, let offset, let reason) = error else { continue }
                #expect(quoted == s && (0...s.count).contains(offset) && !reason.isEmpty, "case \(i): \(s.debugDescription)")
                #expect(!error.message.contains("\n"), "case \(i): \(s.debugDescription)")
            }
        }
        #expect(parsed >= 300 && failed >= 300, "the fuzz should reach both outcomes: \(parsed) parsed, \(failed) failed")
    }
}
