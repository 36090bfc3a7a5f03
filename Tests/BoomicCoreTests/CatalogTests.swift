import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The catalog on small libraries whose answers are written out: each album list, the indexes'
/// articles, what an album and an artist are, ids and hostile ids, search.
@Suite struct CatalogTests {
    /// A song for the examples: id `n`, in `/m/<album>/<n>.flac`.
    static func song(_ n: Int, _ title: String, artist: String, album: String?, albumartist: String? = nil,
                     disc: Int? = nil, track: Int? = nil, year: Int? = nil, genre: String? = nil,
                     added: Double = 0, plays: Int = 0, lastplayed: Double? = nil, rating: Int? = nil,
                     favorite: Bool = false, art: String? = nil, mb: String? = nil) -> Song {
        var s = Song(id: songID(n), path: "/m/\(album ?? "none")/\(n).flac")
        s.title = title
        s.artists = [artist]
        s.album = album
        s.albumartist = albumartist
        s.disc = disc
        s.track = track
        s.year = year
        s.genre = genre
        s.added = added
        s.playcount = plays
        s.lastplayed = lastplayed
        s.rating = rating
        s.favorite = favorite
        s.art = art
        s.mbAlbumID = mb
        s.duration = 100
        return s
    }

    /// Four albums with everything the lists sort by set apart.
    static let library = Catalog(DataBasis(songs: [
        song(1, "So What", artist: "Miles Davis", album: "Kind of Blue", track: 1, year: 1959, genre: "Jazz",
             added: 10, plays: 5, lastplayed: 100, rating: 10, art: "kob"),
        song(2, "Freddie Freeloader", artist: "Miles Davis", album: "Kind of Blue", track: 2, year: 1959, genre: "Jazz",
             added: 12, plays: 1, lastplayed: 50),
        song(3, "Jóga", artist: "Björk", album: "Homogenic", track: 1, year: 1997, genre: "Electronic", added: 30,
             rating: 6, favorite: true),
        song(4, "Blue Train", artist: "John Coltrane", album: "Blue Train", track: 1, year: 1957, genre: "Jazz; Hard Bop",
             added: 20, plays: 2, lastplayed: 200),
        song(5, "Come Together", artist: "The Beatles", album: "Abbey Road", track: 1, year: 1969, genre: "Rock", added: 5),
    ]))

    static func names(_ albums: [CatalogAlbum]) -> [String] { albums.map(\.name) }

    @Test(arguments: [
        (AlbumListType.newest, ["Homogenic", "Blue Train", "Kind of Blue", "Abbey Road"]),
        (.frequent, ["Kind of Blue", "Blue Train"]),
        (.recent, ["Blue Train", "Kind of Blue"]),
        (.starred, ["Homogenic"]),
        (.alphabeticalByName, ["Abbey Road", "Blue Train", "Homogenic", "Kind of Blue"]),
        (.alphabeticalByArtist, ["Homogenic", "Blue Train", "Kind of Blue", "Abbey Road"]),
        (.byYear(from: 1950, to: 1970), ["Blue Train", "Kind of Blue", "Abbey Road"]),
        (.byYear(from: 1970, to: 1950), ["Abbey Road", "Kind of Blue", "Blue Train"]),
        (.byGenre("jazz"), ["Blue Train", "Kind of Blue"]),
        (.byGenre("Hard Bop"), ["Blue Train"]),
        (.highest, ["Kind of Blue", "Homogenic"]),
    ])
    func albumList(type: AlbumListType, expected: [String]) {
        #expect(Self.names(Self.library.albumList(type, size: 50)) == expected)
    }

    @Test func albumListPagesAndCapsTheSize() {
        let c = Self.library
        #expect(Self.names(c.albumList(.alphabeticalByName, size: 2, offset: 1)) == ["Blue Train", "Homogenic"])
        #expect(c.albumList(.alphabeticalByName, size: 2, offset: 9).isEmpty)
        #expect(c.albumList(.alphabeticalByName, size: -1).isEmpty)
        #expect(Self.names(c.albumList(.alphabeticalByName, size: 2, offset: -5)) == ["Abbey Road", "Blue Train"])
        // A starred predicate of the caller's (albums with stars of their own).
        #expect(Self.names(c.albumList(.starred, size: 10) { $0.name.hasPrefix("K") }) == ["Kind of Blue"])

        let many = Catalog(DataBasis(songs: (1...700).map { Self.song($0, "t", artist: "a", album: "Album \($0)") }))
        #expect(many.albumList(.newest, size: 10_000).count == 500)
        #expect(many.albumList(.random(seed: 1), size: 10_000).count == 500)
    }

    @Test func randomIsRepeatableFromItsSeedAndPagesFollowEachOther() {
        let c = Catalog(DataBasis(songs: (1...50).map { Self.song($0, "t", artist: "a", album: "Album \($0)") }))
        let a = c.albumList(.random(seed: 42), size: 20)
        #expect(a == c.albumList(.random(seed: 42), size: 20))
        #expect(a != c.albumList(.random(seed: 43), size: 20))
        #expect(Array(a[10...]) == c.albumList(.random(seed: 42), size: 10, offset: 10))
        #expect(c.randomSongs(size: 5, seed: 9) == c.randomSongs(size: 5, seed: 9))
        #expect(Set(c.randomSongs(size: 50, seed: 9).map(\.id)).count == 50)
    }

    @Test func albumAnswersGetAlbum() throws {
        let c = Catalog(DataBasis(songs: [
            Self.song(3, "Third", artist: "X", album: "Foo", disc: 2, track: 1, year: 2001, genre: "Rock", added: 9, plays: 1,
                      lastplayed: 40, art: "cover2"),
            Self.song(1, "First", artist: "X", album: "Foo", disc: 1, track: 1, year: 2000, genre: "Pop", added: 7, plays: 2,
                      lastplayed: 30),
            Self.song(2, "Second", artist: "X", album: "Foo", disc: 1, track: 2, year: 2000, genre: "Rock", added: 8),
        ].map { s in
            var s = s
            s.path = "/m/Foo/CD\(s.disc!)/\(s.track!).flac" // disc folders of one album
            return s
        }))
        #expect(c.albums.count == 1)
        let album = try #require(c.albums.first)
        #expect(c.songs(of: album).map(\.title) == ["First", "Second", "Third"])
        #expect(album.songCount == 3 && album.duration == 300 && album.year == 2000 && album.genre == "Rock")
        #expect(album.coverSong == songID(3) && album.coverArt == "cover2")
        #expect(album.created == 7 && album.playCount == 3 && album.lastPlayed == 40)
        #expect(album.name == "Foo" && album.artist == "X")
    }

    @Test func artistsAreAlbumArtistsFallingBackToArtists() {
        var guest = Self.song(3, "Guest", artist: "Nina Simone", album: "Duets", albumartist: "Miles Davis")
        guest.artists = ["Nina Simone", "Miles Davis"]
        var compilation = Self.song(4, "Hit", artist: "Someone", album: "Hits")
        compilation.compilation = true
        let c = Catalog(DataBasis(songs: [
            Self.song(1, "a", artist: "Miles Davis", album: "Kind of Blue"),
            Self.song(2, "b", artist: "miles davis", album: "Bitches Brew"),
            guest, compilation,
            Self.song(5, "untagged", artist: "", album: nil),
            Self.song(6, "loose", artist: "Björk", album: nil),
        ].map { s in
            var s = s
            if s.artists == [""] { s.artists = [] }
            return s
        }))
        #expect(c.artists.map(\.name) == ["[Unknown Artist]", "Björk", "Miles Davis", "Various Artists"])
        let miles = c.artist(named: "MILES DAVIS")!
        #expect(c.albums(of: miles).map(\.name).sorted() == ["Bitches Brew", "Duets", "Kind of Blue"])
        #expect(c.artist(named: "Nina Simone") == nil, "a guest is no artist of the list")
        #expect(c.topSongs(artist: "nina simone").map(\.title) == ["Guest"], "but has top songs")
        #expect(c.albums(of: c.artist(named: "Björk")!).map(\.name) == [Catalog.unknownAlbum])
        #expect(c.albums.filter { $0.name == Catalog.unknownAlbum }.count == 2, "one unknown album per artist")
    }

    @Test func indexesSkipArticles() {
        let names = ["The Beatles", "Beach House", "Los Lobos", "Le Tigre", "Theatre of Tragedy", "The", "Édith Piaf",
                     "!!!", "10cc", "坂本龍一", "Las Ketchup", "El Guincho", "La Roux", "Les Rita Mitsouko", "the black keys"]
        let c = Catalog(DataBasis(songs: names.enumerated().map { Self.song($0 + 1, "t", artist: $1, album: "A \($0)") }))
        let got = c.indexes().map { ($0.letter, $0.artists.map(\.name)) }
        let expected: [(String, [String])] = [
            ("B", ["Beach House", "The Beatles", "the black keys"]),
            ("E", ["Édith Piaf"]),
            ("G", ["El Guincho"]),
            ("K", ["Las Ketchup"]),
            ("L", ["Los Lobos"]),
            ("R", ["Les Rita Mitsouko", "La Roux"]),
            ("T", ["The", "Theatre of Tragedy", "Le Tigre"]),
            ("#", ["!!!", "10cc", "坂本龍一"]),
        ]
        #expect(got.map(\.0) == expected.map(\.0))
        for (g, e) in zip(got, expected) { #expect(g.1 == e.1, "\(g.0)") }
        #expect(c.indexes(ignoredArticles: []).first { $0.letter == "T" }?.artists.count == 4)
    }

    @Test func genresCountSongsAndAlbums() {
        let g = Self.library.genres.map { "\($0.name) \($0.songCount) \($0.albumCount)" }
        #expect(g == ["Electronic 1 1", "Hard Bop 1 1", "Jazz 3 2", "Rock 1 1"])
        #expect(Self.library.songs(genre: "JAZZ", count: 2, offset: 1).map(\.title) == ["So What", "Freddie Freeloader"])
    }

    @Test func topSongsByPlays() {
        let c = Catalog(DataBasis(songs: [
            Self.song(1, "Rarely", artist: "A", album: "X", plays: 1),
            Self.song(2, "Often", artist: "A", album: "X", plays: 9),
            Self.song(3, "Never", artist: "A", album: "Y"),
            Self.song(4, "Other", artist: "B", album: "Y", plays: 99),
        ]))
        #expect(c.topSongs(artist: "a").map(\.title) == ["Often", "Rarely", "Never"])
        #expect(c.topSongs(artist: "A", count: 1).map(\.title) == ["Often"])
        #expect(c.topSongs(artist: "nobody").isEmpty)
    }

    @Test func idsSurviveWhatTheyPromise() {
        let mb = "b84ee12a-09ef-421b-82de-0441a926375b"
        let before = Catalog(DataBasis(songs: [
            Self.song(1, "a", artist: "Miles Davis", album: "Kind of Blue", mb: mb),
            Self.song(2, "b", artist: "Björk", album: "Homogenic"),
        ]))
        let after = Catalog(DataBasis(songs: [
            Self.song(1, "a", artist: "Miles Davis", album: "Kind Of Blue (Legacy Edition)", mb: mb.uppercased()),
            Self.song(2, "b", artist: "BJORK", album: "HOMOGENIC"),
        ]))
        #expect(after.album(id: before.albums.first { $0.name == "Kind of Blue" }!.id)?.name == "Kind Of Blue (Legacy Edition)")
        #expect(after.album(id: before.albums.first { $0.name == "Homogenic" }!.id)?.name == "HOMOGENIC")
        #expect(after.artist(id: before.artist(named: "björk")!.id) != nil)
        let renamed = Catalog(DataBasis(songs: [Self.song(2, "b", artist: "Björk", album: "Homogenic (Remastered)")]))
        #expect(renamed.album(id: before.albums.first { $0.name == "Homogenic" }!.id) == nil, "no MusicBrainz id: a new title is a new album")
        #expect(CatalogID.song(songID(7)) == "so-00000000-0000-4000-8000-000000000007")

        // An artist with a MusicBrainz id keeps their id under a new name; one without does not.
        func artistSong(_ name: String, mb: String?) -> Song {
            var s = Self.song(1, "a", artist: name, album: "Purple Rain", albumartist: name)
            s.mbAlbumArtistID = mb
            return s
        }
        let prince = "070d193a-845c-479f-980e-bef15710653e"
        let old = Catalog(DataBasis(songs: [artistSong("Prince", mb: prince)]))
        let new = Catalog(DataBasis(songs: [artistSong("The Artist Formerly Known as Prince", mb: prince)]))
        #expect(new.artist(id: old.artists[0].id)?.name == "The Artist Formerly Known as Prince")
        #expect(new.albums[0].artistID == old.albums[0].artistID)
        let untagged = Catalog(DataBasis(songs: [artistSong("Prince", mb: nil)]))
        let renamedUntagged = Catalog(DataBasis(songs: [artistSong("The Artist Formerly Known as Prince", mb: nil)]))
        #expect(renamedUntagged.artist(id: untagged.artists[0].id) == nil)
    }

    @Test(arguments: [
        "", "al-", "ar-", "so-", "../../etc/passwd", "/m/Homogenic/2.flac", "so-/m/Homogenic/2.flac",
        "so-../../../etc/passwd", "al-../../etc/passwd", "al-0123456789abcdeg", "al-0123456789ABCDEF",
        "al-0123456789abcdef0", "al-0123456789abcde", "al-0123456789abcdef", "ar-ffffffffffffffff",
        "so-00000000-0000-4000-8000-000000000099", "so-00000000-0000-4000-8000-00000000000", "\u{0}", "al-\u{0}",
        String(repeating: "a", count: 100_000), "al-" + String(repeating: "0", count: 1_000), "so-%2e%2e%2f", "🎷",
    ])
    func hostileIDsNameNothing(id: String) {
        #expect(Self.library.entity(forID: id) == nil)
    }

    /// A client's extreme sizes and offsets page as far as the list goes, and never trap.
    @Test func hugeAndNegativePagingParameters() {
        let c = Self.library
        for (size, offset) in [(Int.max, Int.max), (Int.max, 1), (Int.min, Int.min), (1, Int.max), (Int.max, -1), (0, 0)] {
            let types: [AlbumListType] = [.random(seed: 1), .newest, .byYear(from: .min, to: .max), .byYear(from: .max, to: .min)]
            for type in types {
                #expect(c.albumList(type, size: size, offset: offset).count <= min(max(0, size), 4), "\(type) \(size) \(offset)")
            }
            let r = c.search("", artistCount: size, artistOffset: offset, albumCount: size, albumOffset: offset,
                             songCount: size, songOffset: offset)
            let q = c.search("blue", artistCount: size, artistOffset: offset, albumCount: size, albumOffset: offset,
                             songCount: size, songOffset: offset)
            #expect(r.songs.count <= 5 && q.songs.count <= 3)
            #expect(c.songs(genre: "jazz", count: size, offset: offset).count <= 3)
            #expect(c.randomSongs(size: size, fromYear: .min, toYear: .max, seed: 1).count == min(max(0, size), 5))
            #expect(c.topSongs(artist: "Miles Davis", count: size).count == min(max(0, size), 2))
        }
        #expect(c.search("", songCount: Int.max).songs.count == 5)
        #expect(c.search("blue", songCount: Int.max, songOffset: 1).songs.count == 2)
    }

    @Test func searchMatchesWordPrefixesFoldedAndPagesEverythingWhenEmpty() {
        let c = Self.library
        #expect(c.search("bjork").artists.map(\.name) == ["Björk"])
        #expect(c.search("BJÖRK").songs.map(\.title) == ["Jóga"])
        #expect(c.search("kind blu").albums.map(\.name) == ["Kind of Blue"])
        #expect(c.search("blue").albums.map(\.name) == ["Blue Train", "Kind of Blue"], "a name match first")
        #expect(c.search("blue").songs.map(\.title) == ["Blue Train", "So What", "Freddie Freeloader"])
        #expect(c.search("oltrane").artists.isEmpty, "a word matches only at the start of a word")
        #expect(c.search("miles so").songs.map(\.title) == ["So What"])
        #expect(c.search("beatles").artists.map(\.name) == ["The Beatles"])
        for empty in ["", "\"\"", "  ", "*"] {
            let r = c.search(empty, artistCount: 2, albumCount: 3, songCount: 100, songOffset: 1)
            #expect(r.artists.map(\.name) == ["Björk", "John Coltrane"], "'\(empty)'")
            #expect(r.albums.count == 3 && r.songs.count == 4, "'\(empty)'")
        }
        #expect(c.search(Array(repeating: "w", count: 40).enumerated().map { "\($1)\($0)" }.joined(separator: " ")).songs.isEmpty)
    }
}
