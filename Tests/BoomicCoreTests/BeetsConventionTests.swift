import BoomicCore
import Foundation
import Testing

/// Where Boomic follows beets, it follows it (issue 9, item 2.14): bitrate in bit/s, `path:`
/// with `..`, missing values first when ascending, `=~`, unknown sort keys, the play
/// fields under beets' names for them, and one number syntax for queries and taglists (item 2.9).
@Suite("Query: beets' conventions")
struct BeetsConventionTests {
    static func song(_ n: Int, _ path: String, bitrate: Int? = nil, year: Int? = nil, genre: String? = nil) -> Song {
        var s = Song(id: songID(n), path: path)
        s.bitrate = bitrate
        s.year = year
        s.genre = genre
        return s
    }

    static let db = DataBasis(songs: [
        song(1, "/music/a/one.mp3", bitrate: 320, year: 1969, genre: "Rock"),
        song(2, "/music/b/two.mp3", bitrate: 128, year: 1959, genre: "rock"),
        song(3, "/music/b/three.flac", genre: "Rock and Roll"),
    ])

    static func find(_ args: String...) throws -> [Int] {
        try db.songs(matching: QueryParser.parse(args)).map { s in (1...3).first { songID($0) == s.id }! }
    }

    @Test func bitrateIsInBitsPerSecondWithAKSuffix() throws {
        #expect(try Self.find("bitrate:320000") == [1])
        #expect(try Self.find("bitrate:200000..") == [1])
        #expect(try Self.find("bitrate:320k..") == [1])
        #expect(try Self.find("bitrate:..128K") == [2])
        #expect(try Self.find("bitrate:320") == [], "320 bit/s is not 320 kbit/s")
        #expect(throws: QueryError.self) { try QueryParser.parse(["year:1969k"]) }
        let taglist = try Taglist.parse(name: "hq", clauses: ["+@bitrate:>=256k"])
        #expect(Self.db.songs.values.filter(taglist.matches).map(\.id) == [songID(1)])
        #expect(try Taglist.parse(name: "hq", clauses: ["+@bitrate:>=256000"]) == taglist)
    }

    @Test func pathQueriesResolveDotDot() throws {
        #expect(try Set(Self.find("path:/music/a/../b")) == [2, 3])
        #expect(try Set(Self.find("path:/music/a/../b/")) == [2, 3])
        #expect(try Self.find("path:/music/./a/one.mp3") == [1])
        #expect(try Set(Self.find("path:/../music")) == [1, 2, 3])
    }

    @Test func missingValuesSortFirstAscendingAndLastDescending() throws {
        #expect(try Self.find("year+") == [3, 2, 1])
        #expect(try Self.find("year-") == [1, 2, 3])
        #expect(try Self.find("bitrate+") == [3, 2, 1])
    }

    @Test func exactMatchIgnoringCaseAndBareOperators() throws {
        #expect(try Set(Self.find("genre:=~rock")) == [1, 2])
        #expect(try Self.find("genre:=rock") == [2])
        #expect(try Self.find("=rock") == [2], "a bare =value is an exact match on the any-field fields")
        #expect(try Set(Self.find("=~ROCK")) == [1, 2])
        #expect(try Self.find(":and") == [3], "a bare :regex is a regex on the any-field fields")
    }

    @Test("an unknown sort key is an error with a suggestion", arguments: [
        ("foo+", "no field 'foo' to sort by (a word ending in + or - is a sort key; to search for it, write title:foo+); "),
        ("yeer-", "no field 'yeer' to sort by (a word ending in + or - is a sort key; to search for it, write title:yeer-); did you mean 'year'?"),
        ("skip_cont+", "no field 'skip_cont' to sort by (a word ending in + or - is a sort key; to search for it, write title:skip_cont+); did you mean 'skip_count'?"),
    ])
    func unknownSortKey(word: String, reason: String) {
        #expect {
            try QueryParser.parse([word])
        } throws: { error in
            guard let e = error as? QueryError else { return false }
            return e.term == word && e.reason.hasPrefix(reason)
        }
    }

    @Test func beetsPlayFieldNames() throws {
        #expect(FieldName.resolve("play_count") == .playcount)
        #expect(try QueryParser.parse(["play_count:1.."]) == QueryParser.parse(["playcount:1.."]))
        #expect(try FieldAssignment.parse("play_count=3") == FieldAssignment(field: .playcount, value: .int(3)))
        #expect(FieldName.resolve("skip_count") == .skipcount)
        #expect(FieldName.resolve("last_played") == .lastplayed)
        #expect(try QueryParser.parse(["skip_count:>0"]) == QueryParser.parse(["skipcount:>0"]))
        #expect(try QueryParser.parse(["last_played:2026-11.."]) == QueryParser.parse(["lastplayed:2026-11.."]))
        #expect(try FieldAssignment.parse("skip_count=3") == FieldAssignment(field: .skipcount, value: .int(3)))
    }

    @Test("one number syntax: decimals, no hex, nan or inf", arguments: [
        "0x7B9", "nan", "inf", "-inf", "infinity", ".5", "5.", "1e", "+3", "1_000", "١٩٦٩",
    ])
    func numbersThatAreNot(text: String) {
        #expect(DecimalNumber.parse(text) == nil)
        #expect(throws: QueryError.self) { try QueryParser.parse(["year:" + text]) }
        #expect(throws: TaglistError.self) { try Taglist.parse(name: "t", clauses: ["+@year:" + text]) }
    }

    @Test("numbers both read alike", arguments: ["1969", "-6.5", "0.25", "3e2", "1E-2", "007"])
    func numbersThatAre(text: String) throws {
        let d = try #require(DecimalNumber.parse(text))
        #expect(try QueryParser.parse(["year:" + text]).query == .field(.year, .range(lower: d, upper: d)))
        #expect(try Rule(parsing: "@year:" + text) == .field(.year, .compare(.equal, .number(d))))
    }
}

/// One date syntax for queries and taglists (issue 9, item 2.9): `+@added:2026` compared raw
/// seconds since 1970 with 2026 and held no song, while the query `added:2026` matched.
@Suite("Taglists: dates as queries read them")
struct TaglistDateTests {
    static let jan2026 = 1_767_225_600.0      // 2026-01-01T00:00:00Z
    static let db: DataBasis = {
        var songs: [Song] = []
        for (n, added) in [jan2026 - 1, jan2026 + 10, jan2026 + 40 * 86_400, jan2026 + 400 * 86_400].enumerated() {
            var s = Song(id: songID(n + 1), path: "/m/\(n + 1).flac")
            s.added = added
            songs.append(s)
        }
        return DataBasis(songs: songs)
    }()

    static func held(_ clause: String, timeZone: TimeZone = .gmt) throws -> [Int] {
        let t = try Taglist.parse(name: "t", clauses: [clause])
        return db.songs(in: t, timeZone: timeZone).map { s in (1...4).first { songID($0) == s.id }! }.sorted()
    }

    @Test("a taglist's @added reads dates as the query's added: does", arguments: [
        ("+@added:2026", [2, 3]), ("+@added:2026-01", [2]), ("+@added:2026-01..2026-02", [2, 3]),
        ("+@added:..2025", [1]), ("+@added:2027..", [4]), ("+@added:<2026", [1]), ("+@added:<=2026", [1, 2, 3]),
        ("+@added:>2026", [4]), ("+@added:>=2026-02", [3, 4]), ("+@added:!=2026", [1, 4]), ("+@added(2026)", [2, 3]),
    ])
    func datesInTaglists(clause: String, expected: [Int]) throws {
        #expect(try Self.held(clause) == expected)
        let t = try Taglist.parse(name: "t", clauses: [clause])
        #expect(try Taglist.parse(name: "t", clauses: t.arguments) == t, "prints back to itself")
    }

    @Test func taglistAndQueryAgree() throws {
        for zone in [TimeZone.gmt, TimeZone(identifier: "Pacific/Kiritimati")!, TimeZone(identifier: "America/Los_Angeles")!] {
            let byQuery = try Self.db.songs(matching: QueryParser.parse(["added:2026"], timeZone: zone)).map(\.id).sorted()
            let byTaglist = Self.db.songs(in: try Taglist.parse(name: "t", clauses: ["+@added:2026"]), timeZone: zone).map(\.id).sorted()
            #expect(byQuery == byTaglist, "\(zone.identifier)")
        }
    }

    @Test func secondsSince1970StillRead() throws {
        // Taglists stored before dates keep their meaning: a number that is no date is seconds.
        #expect(try Self.held("+@added:>1767225600") == [2, 3, 4])
        #expect(try Rule(parsing: "@added:>1767225600") == .field(.added, .compare(.greater, .number(1_767_225_600))))
        #expect(throws: TaglistError.self) { try Taglist.parse(name: "t", clauses: ["+@added:2026..soon"]) }
        #expect(throws: TaglistError.self) { try Taglist.parse(name: "t", clauses: ["+@added:2027..2026"]) }
    }
}
