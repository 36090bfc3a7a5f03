import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// The ARTIST credit kept beside the ARTISTS list, as beets keeps `artist` and `artists` (issue 9,
/// item 2.14). The laws on random histories (replay, flatten, diff, rollback, JSON, checkpoints)
/// cover the field through `HistoryGenerator`; these are the rules of showing, matching and
/// editing it.
@Suite("Artist credit")
struct ArtistCreditTests {
    /// Song 1 as Picard tags it, song 2 with the same artists and no credit, song 3 another artist.
    static let db: DataBasis = {
        var a = Song(id: songID(1), path: "/m/a.flac"); a.title = "One"; a.artists = ["A", "B"]; a.artistCredit = "A feat. B"
        var b = Song(id: songID(2), path: "/m/b.flac"); b.title = "Two"; b.artists = ["A", "B"]
        var c = Song(id: songID(3), path: "/m/c.flac"); c.title = "Three"; c.artists = ["Zed"]
        return DataBasis(songs: [a, b, c])
    }()

    static func find(_ args: String...) throws -> [Int] {
        try db.songs(matching: QueryParser.parse(args)).map { s in (1...3).first { songID($0) == s.id }! }
    }

    static func modify(_ text: String...) throws -> Song {
        let assignments = try text.map { try FieldAssignment.parse($0) }
        return try #require(db.applying(EditGeneration.modify(db, songs: [songID(1)], set: assignments))[songID(1)])
    }

    @Test func theCreditIsWhatTheSongShows() {
        #expect(Self.db[songID(1)]?.artist == "A feat. B")
        #expect(Self.db[songID(2)]?.artist == "A; B")
        #expect(Song(id: songID(9), path: "/m/x.flac").artist == nil)
    }

    @Test func artistQueriesMatchTheCreditAndEachArtist() throws {
        #expect(try Self.find("artist:feat") == [1])
        #expect(try Self.find("artist:=A feat. B") == [1])
        #expect(try Self.find("artist:=B") == [1, 2])
        #expect(try Self.find("artist:=A; B") == [1, 2], "the list joined, as before credits were kept")
        #expect(try Self.find("^artist:feat") == [2, 3])
        #expect(try Self.find("feat") == [1], "a bare word looks at the credit too")
        #expect(try Self.find("artist_credit:feat") == [1])
        #expect(try Self.find("artist_credit:=") == [2, 3], "no credit is an empty one")
    }

    @Test func taglistsMatchTheCreditAsQueriesDo() throws {
        let feat = try Taglist.parse(name: "feat", clauses: ["+@artist:feat"])
        #expect(Self.db.songs(in: feat).map(\.id) == [songID(1)])
        let notA = try Taglist.parse(name: "not", clauses: ["+@artist:!=A feat. B"])
        #expect(Set(Self.db.songs(in: notA).map(\.id)) == [songID(2), songID(3)])
    }

    @Test func sortingByArtistSortsWhatIsShown() throws {
        // "A feat. B" < "A; B" < "Zed" as folded text.
        #expect(try Self.find("artist+") == [1, 2, 3])
        #expect(try Self.find("artist-") == [3, 2, 1])
    }

    /// `modify artist=` replaces the list and the credit with it, unless the same command sets the
    /// credit; the file's values are remembered for both, so `write` and rescans know them.
    @Test func anArtistEditReplacesTheCredit() throws {
        let s = try Self.modify("artist=C")
        #expect(s.artists == ["C"] && s.artistCredit == nil && s.artist == "C")
        #expect(s.fileValueMap[.artistCredit] == .string("A feat. B") && s.fileValueMap[.artists] == .strings(["A", "B"]))
        let both = try Self.modify("artist=C; D", "artist_credit=C with D")
        #expect(both.artists == ["C", "D"] && both.artist == "C with D")
        let cleared = try Self.modify("artist!")
        #expect(cleared.artists.isEmpty && cleared.artist == nil)
    }

    @Test func aCreditEditKeepsTheList() throws {
        let s = try Self.modify("artist_credit=A & B")
        #expect(s.artists == ["A", "B"] && s.artist == "A & B")
        let gone = try Self.modify("artist_credit!")
        #expect(gone.artistCredit == nil && gone.artist == "A; B")
        // A credit that says what the list says is none.
        #expect(try Self.modify("artist_credit=A; B").artistCredit == nil)
        // A credit with no list is the one artist.
        let none = DataBasis(songs: [Song(id: songID(4), path: "/m/d.flac")])
        let after = none.applying(EditGeneration.modify(none, songs: [songID(4)], set: [try FieldAssignment.parse("artist_credit=Solo")]))
        #expect(after[songID(4)]?.artists == ["Solo"] && after[songID(4)]?.artistCredit == nil)
    }

    /// The log is append-only: a song added before credits were kept has none, and shows its
    /// artists joined, as it did.
    @Test func rowsWithoutTheFieldReadAsBefore() throws {
        let json = #"{"add":{"id":"00000000-0000-4000-8000-000000000001","path":"/m/a.flac","artists":["A","B"],"size":1,"mtime":2,"missing":false,"added":3,"compilation":false,"tags":[],"playcount":0,"favorite":false,"fileValues":[]}}"#
        let a = try JSONDecoder().decode(Assertion.self, from: Data(json.utf8))
        guard case .addSong(let s) = a else { Issue.record("not an add: \(a)"); return }
        #expect(s.artistCredit == nil && s.artist == "A; B")
        // And a song without a credit writes no key for it.
        let encoded = String(decoding: try JSONEncoder().encode(s), as: UTF8.self)
        #expect(!encoded.contains("artistCredit") && !encoded.contains("artist_credit"))
    }

    /// The random histories the laws run on hold credits, changed and cleared.
    @Test func theLawsSeeCredits() {
        var credited = 0, changed = 0
        for h in Histories.all {
            credited += h.head.songs.values.filter { $0.artistCredit != nil }.count
            for t in h.transactions {
                for case .updateSong(_, let p) in t.assertions where p[.artistCredit] != nil { changed += 1 }
            }
        }
        #expect(credited >= Seeds.atLeast(20) && changed >= Seeds.atLeast(20), "\(credited) credited songs, \(changed) credit changes")
    }
}
