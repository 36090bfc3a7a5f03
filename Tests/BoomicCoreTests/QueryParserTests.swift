import Testing
@testable import BoomicCore

/// QUERY parsing (DESIGN §4, the beets conventions): a table of arguments and the tree they
/// must give, one row per edge case.
@Suite("Query parser")
struct QueryParserTests {
    typealias Q = Query

    static func any(_ s: String) -> Q { .anyField(.substring(s)) }

    @Test("queries parse to the expected tree", arguments: [
        ([], ParsedQuery(query: .all)),
        (["miles"], ParsedQuery(query: any("miles"))),
        (["Miles", "DAVIS"], ParsedQuery(query: .and([any("miles"), any("davis")]))),
        (["Björk"], ParsedQuery(query: any("bjork"))),
        (["artist:miles"], ParsedQuery(query: .field(.artists, .substring("miles")))),
        (["ARTIST:Miles Davis"], ParsedQuery(query: .field(.artists, .substring("miles davis")))),
        (["albumartist:Sigur Rós"], ParsedQuery(query: .field(.albumartist, .substring("sigur ros")))),
        (["title:=So What"], ParsedQuery(query: .field(.title, .exact("So What")))),
        (["title::^So"], ParsedQuery(query: .field(.title, .regex("^So")))),
        (["title::a:b"], ParsedQuery(query: .field(.title, .regex("a:b")))),
        (["year:1990..1999"], ParsedQuery(query: .field(.year, .range(lower: 1990, upper: 1999)))),
        (["rating:4.."], ParsedQuery(query: .field(.rating, .range(lower: 4, upper: nil)))),
        (["year:..1970"], ParsedQuery(query: .field(.year, .range(lower: nil, upper: 1970)))),
        (["year:1969"], ParsedQuery(query: .field(.year, .range(lower: 1969, upper: 1969)))),
        (["year:=1969"], ParsedQuery(query: .field(.year, .exact("1969")))),
        (["replaygain_track_gain:-6.5..0"], ParsedQuery(query: .field(.replaygainTrackGain, .range(lower: -6.5, upper: 0)))),
        (["length:60.5.."], ParsedQuery(query: .field(.duration, .range(lower: 60.5, upper: nil)))),
        (["comp:true"], ParsedQuery(query: .field(.compilation, .exact("true")))),
        (["favorite:no"], ParsedQuery(query: .field(.favorite, .exact("false")))),
        (["^genre:jazz"], ParsedQuery(query: .not(.field(.genre, .substring("jazz"))))),
        (["-genre:jazz"], ParsedQuery(query: .not(.field(.genre, .substring("jazz"))))),
        (["^rock"], ParsedQuery(query: .not(any("rock")))),
        (["a", ",", "b"], ParsedQuery(query: .or([any("a"), any("b")]))),
        (["a,", "b"], ParsedQuery(query: .or([any("a"), any("b")]))),
        (["a", "b", ",", "c"], ParsedQuery(query: .or([.and([any("a"), any("b")]), any("c")]))),
        (["a\\,", "b"], ParsedQuery(query: .and([any("a,"), any("b")]))),
        // A comma anywhere in an argument, spaces around it or not.
        (["artist:a,artist:b"], ParsedQuery(query: .or([.field(.artists, .substring("a")), .field(.artists, .substring("b"))]))),
        (["a, b"], ParsedQuery(query: .or([any("a"), any("b")]))),
        (["a", ",b"], ParsedQuery(query: .or([any("a"), any("b")]))),
        (["a ,b", "c"], ParsedQuery(query: .or([any("a"), .and([any("b"), any("c")])]))),
        (["x\\,y,z"], ParsedQuery(query: .or([any("x,y"), any("z")]))),
        (["blue in green"], ParsedQuery(query: any("blue in green"))),
        (["year+", "title-"], ParsedQuery(query: .all, sort: [SortKey(field: .year, ascending: true),
                                                             SortKey(field: .title, ascending: false)])),
        (["jazz", "artist+"], ParsedQuery(query: any("jazz"), sort: [SortKey(field: .artists, ascending: true)])),
        (["c++"], ParsedQuery(query: any("c++"))),
        (["title:rock-"], ParsedQuery(query: .field(.title, .substring("rock-")))),
        (["#jazz"], ParsedQuery(query: .tag("jazz", includeChildren: false))),
        (["#Jazz"], ParsedQuery(query: .tag("jazz", includeChildren: false))),
        (["#rock\\,pop"], ParsedQuery(query: .tag("rock,pop", includeChildren: false))),
        (["#rock,pop"], ParsedQuery(query: .or([.tag("rock", includeChildren: false), any("pop")]))),
        (["#instruments:"], ParsedQuery(query: .tag("instruments", includeChildren: true))),
        (["#instruments:piano"], ParsedQuery(query: .tag("instruments:piano", includeChildren: false))),
        (["tag:jazz"], ParsedQuery(query: .tag("jazz", includeChildren: false))),
        (["^#jazz"], ParsedQuery(query: .not(.tag("jazz", includeChildren: false)))),
        (["-#instruments:"], ParsedQuery(query: .not(.tag("instruments", includeChildren: true)))),
        (["title:a\\:b"], ParsedQuery(query: .field(.title, .substring("a:b")))),
        (["a\\:b"], ParsedQuery(query: any("a:b"))),
        (["title:=a\\:b"], ParsedQuery(query: .field(.title, .exact("a:b")))),
    ] as [([String], ParsedQuery)])
    func parses(args: [String], expected: ParsedQuery) throws {
        #expect(try QueryParser.parse(args) == expected)
    }

    @Test("bad terms are errors that quote the term and say what is accepted", arguments: [
        (["yeer:1969"], "yeer:1969", "unknown field 'yeer'; did you mean 'year'? (write \\: for a literal colon)"),
        (["jazz", "-gnre:x"], "-gnre:x", "unknown field 'gnre'; did you mean 'genre'? (write \\: for a literal colon)"),
        (["year:19x0"], "year:19x0", "'19x0' is not a number; write a value like 1969 or a range like 1990..1999"),
        (["year:1990..19x9"], "year:1990..19x9", "'19x9' is not a number; write a value like 1969 or a range like 1990..1999"),
        (["year:.."], "year:..", "a range needs at least one end, e.g. 1990..1999 or 4.."),
        (["year:1999..1990"], "year:1999..1990", "the range is empty (its first end is after its last); write 1990..1999"),
        (["added:2026-03..2026-01"], "added:2026-03..2026-01", "the range is empty (its first end is after its last); write 2026-01..2026-03"),
        (["year:"], "year:", "the value is empty"),
        (["title::("], "title::(", "'(' is not a valid regular expression"),
        (["#"], "#", "a tag needs a name, e.g. #jazz or #instruments:piano"),
        (["^#"], "^#", "a tag needs a name, e.g. #jazz or #instruments:piano"),
        (["#:"], "#:", "a tag needs a name, e.g. #jazz or #instruments:piano"),
        (["tag:"], "tag:", "a tag needs a name, e.g. #jazz or #instruments:piano"),
        (["^"], "^", "nothing after the negation sign"),
        (["-"], "-", "nothing after the negation sign (to search for a dash, write title:- or :- for any field)"),
        (["comp:maybe"], "comp:maybe", "'compilation' is true or false"),
        (["rock-"], "rock-", "no field 'rock' to sort by (a word ending in + or - is a sort key; to search for it, write title:rock-); did you mean 'track'?"),
    ] as [([String], String, String)])
    func rejects(args: [String], term: String, reason: String) {
        #expect(throws: QueryError(term: term, reason: reason)) { try QueryParser.parse(args) }
        #expect(QueryError(term: term, reason: reason).errorDescription == "bad query term '\(term)': \(reason)")
    }

    @Test("an unknown field with no close name lists the known ones")
    func unknownFieldWithoutSuggestion() {
        #expect {
            try QueryParser.parse(["xyzzyplugh:1"])
        } throws: { error in
            let reason = (error as? QueryError)?.reason ?? ""
            return reason.hasPrefix("unknown field 'xyzzyplugh'; known fields are ") && reason.contains("year")
        }
    }
}
