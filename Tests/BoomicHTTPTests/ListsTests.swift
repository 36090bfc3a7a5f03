@testable import BoomicHTTP
import BoomicCore
import Foundation
import FoundationXML
import Testing

/// `getAlbumList2`, `getAlbumList`, `getRandomSongs`, `getSongsByGenre`, `getStarred2` and
/// `getStarred` over a real library (`BrowsingFixture`).
@Suite struct ListsTests {
    /// Every type answers, with the catalog's albums in the catalog's order for that type.
    @Test func everyAlbumListType() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        let starred: (CatalogAlbum) -> Bool = { $0.starred != nil }
        let types: [(String, AlbumListType)] = [
            ("newest", .newest), ("frequent", .frequent), ("recent", .recent), ("starred", .starred),
            ("alphabeticalByName", .alphabeticalByName), ("alphabeticalByArtist", .alphabeticalByArtist),
            ("highest", .highest), ("byYear&fromYear=1960&toYear=2030", .byYear(from: 1960, to: 2030)),
            ("byYear&fromYear=2030&toYear=1960", .byYear(from: 2030, to: 1960)),
            ("byGenre&genre=jazz", .byGenre("jazz")),
        ]
        for (query, type) in types {
            let expected = catalog.albumList(type, size: 500, starred: starred).map(\.id)
            let albums = Answer.list(try await f.payload("getAlbumList2", "type=\(query)&size=500", "albumList2"), "album")
            #expect(Answer.ids(albums) == expected, "\(query)")
            let folders = Answer.list(try await f.payload("getAlbumList", "type=\(query)&size=500", "albumList"), "album")
            #expect(Answer.ids(folders) == expected, "\(query) as folders")
            #expect(folders.allSatisfy { $0["isDir"] as? Bool == true }, "\(query)")
        }
        #expect(catalog.albumList(.frequent, size: 500).map(\.name) == ["Blue Sketches"])
        #expect(catalog.albumList(.starred, size: 500) { $0.starred != nil }.map(\.name) == ["Blue Sketches"])
        #expect(catalog.albumList(.byYear(from: 1960, to: 2030), size: 500).count >= 3)
        #expect(!catalog.albumList(.byGenre("jazz"), size: 500).isEmpty)
        let random = Answer.list(try await f.payload("getAlbumList2", "type=random&size=500", "albumList2"), "album")
        #expect(Set(Answer.ids(random)) == Set(catalog.albums.map(\.id)) && random.count == catalog.albums.count)
        // The same list in XML.
        let xml = try await f.xml("getAlbumList2", "type=alphabeticalByName&size=500")
        let list = try #require(Answer.children(xml, "albumList2").first)
        #expect(Answer.children(list, "album").compactMap { Answer.attribute($0, "id") }
                == catalog.albumList(.alphabeticalByName, size: 500).map(\.id))
        await f.stop()
    }

    /// Pages of any size cover the list exactly once, in order; a size over 500 is 500.
    @Test func pagingCoversEveryAlbumOnce() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        for size in [1, 3, 7] {
            var seen: [String] = []
            var offset = 0
            while true {
                let page = Answer.ids(Answer.list(
                    try await f.payload("getAlbumList2", "type=alphabeticalByArtist&size=\(size)&offset=\(offset)", "albumList2"), "album"))
                #expect(page.count <= size)
                if page.isEmpty { break }
                seen += page
                offset += page.count
            }
            #expect(seen == catalog.albumList(.alphabeticalByArtist, size: 500).map(\.id))
        }
        let big = Answer.list(try await f.payload("getAlbumList2", "type=newest&size=100000", "albumList2"), "album")
        #expect(big.count == min(500, catalog.albums.count))
        let beyond = Answer.list(try await f.payload("getAlbumList2", "type=newest&offset=\(Int.max)", "albumList2"), "album")
        #expect(beyond.isEmpty)
        let negative = Answer.list(try await f.payload("getAlbumList2", "type=newest&size=-5&offset=-9", "albumList2"), "album")
        #expect(negative.isEmpty)
        await f.stop()
    }

    /// As Navidrome answers them: no type is error 10, an unknown type error 0, a byYear
    /// without its years or a byGenre without its genre error 10, a size that is no number 10.
    @Test func badTypesAreErrors() async throws {
        let f = try await BrowsingFixture()
        for endpoint in ["getAlbumList2", "getAlbumList"] {
            #expect(try await f.code(endpoint) == 10)
            #expect(try await f.code(endpoint, "type=mostPopular") == 0)
            #expect(try await f.code(endpoint, "type=" + String(repeating: "x", count: 10_000)) == 0)
            #expect(try await f.code(endpoint, "type=byYear&fromYear=1990") == 10)
            #expect(try await f.code(endpoint, "type=byYear&fromYear=abc&toYear=2000") == 10)
            #expect(try await f.code(endpoint, "type=byGenre") == 10)
            #expect(try await f.code(endpoint, "type=newest&size=" + String(repeating: "9", count: 40)) == 10)
        }
        #expect(try await f.code("getSongsByGenre") == 10)
        await f.stop()
    }

    @Test func randomSongsAndSongsByGenre() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        let all = Set(catalog.songs.map { "so-\($0.id)" })
        let random = Answer.list(try await f.payload("getRandomSongs", "size=500", "randomSongs"), "song")
        #expect(Set(Answer.ids(random)) == all && random.count == all.count)
        let ten = Answer.list(try await f.payload("getRandomSongs", "", "randomSongs"), "song")
        #expect(ten.count == min(10, all.count) && Set(Answer.ids(ten)).isSubset(of: all))
        let genre = try #require(catalog.genres.max { $0.songCount < $1.songCount })
        let years = Answer.list(try await f.payload("getRandomSongs", "size=500&fromYear=1990&toYear=1999", "randomSongs"), "song")
        #expect(Set(Answer.ids(years)) == Set(catalog.songs.filter { ($0.year ?? 0) >= 1990 && ($0.year ?? 0) <= 1999 }.map { "so-\($0.id)" }))
        let ofGenre = Answer.list(try await f.payload("getRandomSongs", "size=500&genre=\(Answer.escaped(genre.name))", "randomSongs"), "song")
        #expect(ofGenre.count == genre.songCount)

        // Paging through a genre's songs: each once, in the catalog's order.
        var seen: [String] = []
        var offset = 0
        while true {
            let page = Answer.ids(Answer.list(try await f.payload(
                "getSongsByGenre", "genre=\(Answer.escaped(genre.name.uppercased()))&count=2&offset=\(offset)", "songsByGenre"), "song"))
            if page.isEmpty { break }
            seen += page
            offset += page.count
        }
        #expect(seen == catalog.songs(genre: genre.name, count: 500).map { "so-\($0.id)" })
        #expect(seen.count == genre.songCount)
        await f.stop()
    }

    @Test func starredAlbumsArtistsAndSongs() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        let blue = try #require(catalog.albums.first { $0.name == "Blue Sketches" })
        let favorite = try #require(catalog.songs.first { $0.favorite })
        let body = try await f.payload("getStarred2", "", "starred2")
        #expect(Answer.ids(Answer.list(body, "album")) == [blue.id])
        #expect(Answer.ids(Answer.list(body, "artist")) == [blue.artistID])
        #expect(Answer.ids(Answer.list(body, "song")) == ["so-\(favorite.id)"])
        let song = try #require(Answer.list(body, "song").first)
        BrowsingTests.expectSong(song, favorite, catalog, music: f.music)
        #expect(song["userRating"] as? Int == 4)
        #expect(song["starred"] as? String == BrowsingTests.iso(f.favoriteStarredAt))
        #expect(Answer.list(body, "album").first?["starred"] as? String == BrowsingTests.iso(BrowsingFixture.starredAt))
        let folders = try await f.payload("getStarred", "", "starred")
        #expect(Answer.ids(Answer.list(folders, "album")) == [blue.id])
        #expect(Answer.list(folders, "album").first?["isDir"] as? Bool == true)
        #expect(Answer.ids(Answer.list(folders, "song")) == ["so-\(favorite.id)"])
        let xml = try #require(Answer.children(try await f.xml("getStarred2"), "starred2").first)
        #expect(Answer.children(xml, "album").compactMap { Answer.attribute($0, "id") } == [blue.id])
        await f.stop()
    }
}
