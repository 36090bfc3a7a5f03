import BoomicCore
import Foundation
import Testing

/// `added:` date ranges and `path:` folder queries (issue 5, item 1).
@Suite("Query: dates and paths")
struct QueryDateAndPathTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let jan2026 = 1_767_225_600.0      // 2026-01-01T00:00:00Z
    static let feb2026 = 1_769_904_000.0      // 2026-02-01T00:00:00Z

    static func match(_ q: String, tz: TimeZone = utc) throws -> Query.Match? {
        if case .field(_, let m) = try QueryParser.parse([q], timeZone: tz).query { return m }
        return nil
    }

    @Test func aMonthIsItsWholeMonth() throws {
        #expect(try Self.match("added:2026-01") == .range(lower: Self.jan2026, upper: Self.feb2026.nextDown))
    }

    @Test func openRangesIncludeAllOfTheirEnd() throws {
        #expect(try Self.match("added:2026-01..") == .range(lower: Self.jan2026, upper: nil))
        #expect(try Self.match("added:..2026-01") == .range(lower: nil, upper: Self.feb2026.nextDown))
        #expect(try Self.match("added:2026..2026") == .range(lower: Self.jan2026, upper: 1_798_761_600.0.nextDown))
    }

    @Test func datesAreReadInTheGivenZone() throws {
        let paris = TimeZone(identifier: "Europe/Paris")!
        let start = Self.jan2026 - 3600, end = Self.jan2026 + 86_400 - 3600   // Paris is UTC+1 in January
        #expect(try Self.match("added:2026-01-01", tz: paris) == .range(lower: start, upper: end.nextDown))
    }

    @Test(arguments: ["added:2026-13", "added:26-01", "added:yesterday", "added:..", "added:2026-01-01T25:00"])
    func badDatesAreErrorsThatQuoteTheTerm(_ q: String) {
        #expect(throws: QueryError.self) { try QueryParser.parse([q]) }
        do { _ = try QueryParser.parse([q]) } catch {
            #expect(error.localizedDescription.contains("'\(q)'"))
        }
    }

    @Test func addedFiltersSongsByImportTime() throws {
        var ids = CountingIDSource()
        var early = Song(id: SongID(ids.next()), path: "/m/a.flac"); early.added = Self.jan2026 - 1
        var inside = Song(id: SongID(ids.next()), path: "/m/b.flac"); inside.added = Self.jan2026 + 10
        var late = Song(id: SongID(ids.next()), path: "/m/c.flac"); late.added = Self.feb2026
        let db = DataBasis(songs: [early, inside, late])
        let found = try db.songs(matching: QueryParser.parse(["added:2026-01"])).map(\.path)
        #expect(found == ["/m/b.flac"])
    }

    @Test func anAbsolutePathIsAFileOrAFolder() throws {
        var ids = CountingIDSource()
        let paths = ["/music/jazz/a.flac", "/music/jazz/sub/b.flac", "/music/jazzy/c.flac", "/other/music/jazz/d.flac"]
        let db = DataBasis(songs: paths.map { Song(id: SongID(ids.next()), path: $0) })
        func ls(_ q: String) throws -> [String] { try db.songs(matching: QueryParser.parse([q])).map(\.path).sorted() }
        #expect(try ls("path:/music/jazz") == ["/music/jazz/a.flac", "/music/jazz/sub/b.flac"])
        #expect(try ls("path:/music/jazz/") == ["/music/jazz/a.flac", "/music/jazz/sub/b.flac"])
        #expect(try ls("path:/music/jazz/a.flac") == ["/music/jazz/a.flac"])
        #expect(try ls("path:jazz") == paths.sorted(), "a relative value is a substring, as for any text field")
        #expect(try ls("^path:/music/jazz") == ["/music/jazzy/c.flac", "/other/music/jazz/d.flac"])
    }
}
