@testable import BoomicHTTP
import BoomicCore
import Foundation
import FoundationXML
import Testing

/// `search3` and `search2` over a real library (`BrowsingFixture`).
@Suite struct SearchTests {
    /// An empty query, `""` as Symfonium sends it, or none: pages through every song, album
    /// and artist exactly once, in the catalog's order.
    @Test func anEmptyQueryPagesThroughTheWholeLibrary() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        for query in ["query=", "query=%22%22", ""] {
            var songs: [String] = [], albums: [String] = [], artists: [String] = []
            var offset = 0
            while true {
                let body = try await f.payload("search3", "\(query)&songCount=4&songOffset=\(offset)&albumCount=4&albumOffset=\(offset)"
                                               + "&artistCount=4&artistOffset=\(offset)", "searchResult3")
                let page = Answer.ids(Answer.list(body, "song"))
                songs += page
                albums += Answer.ids(Answer.list(body, "album"))
                artists += Answer.ids(Answer.list(body, "artist"))
                if page.isEmpty { break }
                offset += 4
            }
            #expect(songs == catalog.songs.map { "so-\($0.id)" }, "\(query)")
            #expect(albums == catalog.albums.map(\.id), "\(query)")
            #expect(artists == catalog.artists.map(\.id), "\(query)")
        }
        await f.stop()
    }

    @Test func textFindsSongsAlbumsAndArtists() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        let body = try await f.payload("search3", "query=miles", "searchResult3")
        let found = catalog.search("miles")
        #expect(Answer.ids(Answer.list(body, "artist")) == found.artists.map(\.id))
        #expect(Answer.ids(Answer.list(body, "album")) == found.albums.map(\.id))
        #expect(Answer.ids(Answer.list(body, "song")) == found.songs.map { "so-\($0.id)" })
        #expect(Answer.list(body, "artist").first?["name"] as? String == "Miles Quartet")
        for (e, s) in zip(Answer.list(body, "song"), found.songs) { BrowsingTests.expectSong(e, s, catalog, music: f.music) }
        // Folded: `motorhead` finds Motörhead-ish; words are prefixes.
        let folded = try await f.payload("search3", "query=motorh%20spatz", "searchResult3")
        #expect(Answer.list(folded, "album").map { $0["name"] as? String } == ["Ace of Spätz"])
        // Counts of 0 leave a kind out; search2 answers folders.
        let songsOnly = try await f.payload("search3", "query=miles&artistCount=0&albumCount=0", "searchResult3")
        #expect(Answer.list(songsOnly, "artist").isEmpty && Answer.list(songsOnly, "album").isEmpty)
        #expect(Answer.list(songsOnly, "song").count == found.songs.count)
        let two = try await f.payload("search2", "query=miles", "searchResult2")
        #expect(Answer.ids(Answer.list(two, "album")) == found.albums.map(\.id))
        #expect(Answer.list(two, "album").allSatisfy { $0["isDir"] as? Bool == true })
        let xml = try #require(Answer.children(try await f.xml("search3", "query=miles"), "searchResult3").first)
        #expect(Answer.children(xml, "song").compactMap { Answer.attribute($0, "id") } == found.songs.map { "so-\($0.id)" })
        // Nothing found is an empty answer, not an error.
        let none = try await f.payload("search3", "query=zzzqqq", "searchResult3")
        #expect(Answer.list(none, "song").isEmpty && Answer.list(none, "album").isEmpty)
        await f.stop()
    }

    @Test func hostileSearchParameters() async throws {
        let f = try await BrowsingFixture()
        let huge = String(repeating: "a%20", count: 3000)
        #expect(try await f.code("search3", "query=\(huge)") == nil)
        #expect(try await f.code("search3", "query=..%2F..%2Fetc%2Fpasswd") == nil)
        #expect(try await f.code("search3", "query=x&songCount=abc") == 10)
        #expect(try await f.code("search3", "query=&songCount=-3&songOffset=-7") == nil)
        let all = try await f.payload("search3", "query=&songCount=\(Int.max)&songOffset=0", "searchResult3")
        #expect(Answer.list(all, "song").count == f.catalog.songs.count)
        let beyond = try await f.payload("search3", "query=&songCount=10&songOffset=\(Int.max)", "searchResult3")
        #expect(Answer.list(beyond, "song").isEmpty)
        await f.stop()
    }
}
