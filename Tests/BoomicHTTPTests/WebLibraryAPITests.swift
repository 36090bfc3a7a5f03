@testable import BoomicHTTP
import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// The library pages' API over a library of two songs: albums in pages, search, an album, a
/// song with every field and its blame, and the refusals (a bad order or number 400, an id
/// that is no song's or a path 404, media of a file that is not there 404), each as JSON.
@Suite(.serialized)
struct WebLibraryAPITests {
    /// A front with anna logged in: the fixture and her cookie.
    static func loggedIn() async throws -> (FrontFixture, [String: String]) {
        let front = try await FrontFixture()
        let (cookie, _) = try await WebSessionTests.login(front)
        return (front, ["Cookie": cookie])
    }

    static func object(_ answer: RawHTTP.Answer) throws -> [String: Any] { try WebSessionTests.object(answer) }

    @Test func albumsSearchAndAnAlbum() async throws {
        let (front, cookie) = try await Self.loggedIn()
        let page = try Self.object(try await front.get("/api/albums?order=alphabeticalByName&size=1", headers: cookie))
        let albums = try #require(page["albums"] as? [[String: Any]])
        #expect(page["total"] as? Int == 1 && albums.count == 1 && albums.first?["songCount"] as? Int == 2, "\(page)")
        let id = try #require(albums.first?["id"] as? String)
        #expect(id.hasPrefix("al-"))

        let album = try Self.object(try await front.get("/api/albums/\(id)", headers: cookie))
        #expect((album["songs"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Song 0", "Song 1"], "\(album)")

        let found = try Self.object(try await front.get("/api/search?q=son%201", headers: cookie))
        #expect((found["songs"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Song 1"], "\(found)")
        let none = try Self.object(try await front.get("/api/search?q=", headers: cookie))
        #expect((none["songs"] as? [Any])?.isEmpty == true, "an empty query finds nothing: \(none)")

        let artists = try Self.object(try await front.get("/api/artists", headers: cookie))
        #expect((artists["artists"] as? [[String: Any]])?.count == 1, "\(artists)")
        await front.stop()
    }

    /// Every field with a value, each blamed on the transaction that set it: here the import
    /// that added the songs.
    @Test func aSongHasEveryFieldAndItsBlame() async throws {
        let (front, cookie) = try await Self.loggedIn()
        let song = try #require(front.session.basis.songs.values.first { $0.title == "Song 0" })
        let answer = try Self.object(try await front.get("/api/songs/\(CatalogID.song(song.id))", headers: cookie))
        let fields = try #require(answer["fields"] as? [[String: Any]], "\(answer)")
        let title = try #require(fields.first { $0["field"] as? String == "title" })
        #expect(title["value"] as? String == "Song 0" && title["group"] as? String == "tag", "\(title)")
        let blame = try #require(title["blame"] as? [String: Any])
        #expect(blame["seq"] as? Int == 1 && blame["label"] as? String == "add" && blame["kind"] as? String == "import", "\(blame)")
        let path = try #require(fields.first { $0["field"] as? String == "path" })
        #expect(path["group"] as? String == "file" && (path["value"] as? String)?.hasSuffix("/music/0.flac") == true)
        #expect(!fields.contains { $0["field"] as? String == "genre" }, "no field without a value")
        #expect((answer["song"] as? [String: Any])?["title"] as? String == "Song 0")
        await front.stop()
    }

    @Test func refusalsAreJSONWithTheirStatus() async throws {
        let (front, cookie) = try await Self.loggedIn()
        func refused(_ path: String) async throws -> (Int, String?) {
            let answer = try await front.get(path, headers: cookie)
            return (answer.status, try Self.object(answer)["error"] as? String)
        }
        #expect(try await refused("/api/albums?order=loudest").0 == 400)
        #expect(try await refused("/api/albums?offset=-1") == (400, "offset is a whole number, not '-1'."))
        #expect(try await refused("/api/albums/al-nothing") == (404, "No album al-nothing."))
        #expect(try await refused("/api/songs/%2Fetc%2Fpasswd").0 == 404)
        #expect(try await refused("/api/songs/so-00000000-0000-0000-0000-000000000000").0 == 404)
        #expect(try await refused("/api/artists/ar-nothing").0 == 404)
        let song = try #require(front.session.basis.songs.values.first)
        // The fixture's songs have no files: the stream is refused as not found, never read.
        #expect(try await refused("/api/stream/\(CatalogID.song(song.id))") == (404, "Song file not found."))
        #expect(try await refused("/api/cover/\(CatalogID.song(song.id))") == (404, "Cover art not found."))
        await front.stop()
    }

    /// The page's `<audio>` and covers go through `stream`'s and `getCoverArt`'s code with the
    /// session's cookie: a `Range` is `206` and byte-exact, a cover is scaled; without a session
    /// neither is sent.
    @Test func streamAndCoverUseTheSession() async throws {
        let f = try await MediaFixture.shared.value
        let session = f.front.sessions.start(user: "anna")
        let cookie = ["Cookie": "boomic_session=\(session.id)"]
        let id = try f.id("01 Tone.flac")
        let file = try f.bytes(of: try f.song("01 Tone.flac").path)
        let part = try await MediaHTTP.send(f.port, "GET", "/api/stream/\(id)", headers: cookie.merging(["Range": "bytes=100-1099"]) { $1 })
        #expect(part.status == 206 && part.headers["content-range"] == "bytes 100-1099/\(file.count)", "\(part)")
        #expect(Bytes(part.body) == Bytes(file[100..<1100]))
        let whole = try await MediaHTTP.send(f.port, "GET", "/api/stream/\(id)", headers: cookie)
        #expect(whole.status == 200 && Bytes(whole.body) == Bytes(file) && whole.headers["content-type"] == "audio/flac", "\(whole)")
        let opus = try await MediaHTTP.send(f.port, "GET", "/api/stream/\(id)?format=opus", headers: cookie)
        #expect(opus.status == 200 && opus.headers["content-type"] == "audio/ogg" && opus.body.starts(with: Array("OggS".utf8)), "\(opus)")
        let cover = try await MediaHTTP.send(f.port, "GET", "/api/cover/\(f.catalog.albums.first { $0.coverArt != nil }?.id ?? "")?size=50",
                                             headers: cookie)
        #expect(cover.status == 200 && cover.headers["content-type"] == "image/jpeg", "\(cover)")
        #expect(try await MediaHTTP.send(f.port, "GET", "/api/stream/\(id)").status == 401)
        #expect(try await MediaHTTP.send(f.port, "GET", "/api/cover/\(id)").status == 401)
        f.front.sessions.end(session.id)
    }
}
