@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import Foundation
import Testing

/// The front's catalog follows a star and a scrobble (`CatalogCache`, `Catalog.updated(to:by:)`)
/// instead of grouping the library afresh, and answers as a fresh one would.
@Suite(.serialized)
struct CatalogFollowTests {
    @Test func aStarAndAScrobbleAreFollowedNotRebuilt() async throws {
        let f = try await BrowsingFixture()
        let album = try #require(f.catalog.albums.first { $0.playCount == 0 })
        let song = try #require(f.catalog.songs(of: album).first)
        #expect(try await f.code("getAlbum", "id=\(album.id)") == nil)
        #expect(f.front.catalogs.buildCount == 1 && f.front.catalogs.updateCount == 0)

        #expect(try await f.code("star", "id=so-\(song.id)") == nil)
        let starred = try await f.payload("getStarred2", "", "starred2")
        #expect(Answer.list(starred, "song").contains { $0["id"] as? String == "so-\(song.id)" })
        #expect(try await f.code("scrobble", "id=so-\(song.id)&submission=true") == nil)
        let frequent = try await f.payload("getAlbumList2", "type=frequent&size=500", "albumList2")
        #expect(Answer.list(frequent, "album").contains { $0["id"] as? String == album.id }, "the played album is frequent")
        #expect(f.front.catalogs.buildCount == 3)
        #expect(f.front.catalogs.updateCount == 2, "the star and the play were followed, not grouped afresh")

        // The followed catalog answers as a fresh one: same album entry.
        let followed = try await f.payload("getAlbum", "id=\(album.id)", "album")
        let fresh = Catalog(f.session.basis)
        let entry = try #require(fresh.album(id: album.id))
        #expect(followed["playCount"] as? Int == entry.playCount && followed["songCount"] as? Int == entry.songCount)
        await f.stop()
    }
}
