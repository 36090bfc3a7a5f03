@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// `star`, `unstar`, `setRating` and `scrobble` through the real front on a temporary library:
/// the library shows each change, the transaction names the user and the client, undo takes it
/// back, a scrobble sent twice counts once, and ids that name nothing are error 70.
@Suite(.serialized)
struct AnnotationEndpointTests {
    @Test func starIsOneTransactionNamingUserAndClientAndUndoTakesItBack() async throws {
        let f = try await AnnotationFixture()
        let catalog = Catalog(f.session.basis)
        let album = try #require(catalog.albums.first { $0.name == "Chelsea Girl" })
        let artist = try #require(catalog.artists.first { $0.name == "Joni Mitchell" })
        let before = f.session.head
        #expect(try await f.code("star", "id=\(f.id(0))&id=\(f.id(2))&albumId=\(album.id)&artistId=\(artist.id)") == nil)
        #expect(f.session.head == before + 1, "one transaction for the whole call")
        let basis = f.session.basis
        #expect(basis[f.songs[0]]?.favorite == true && basis[f.songs[2]]?.favorite == true && basis[f.songs[1]]?.favorite != true)
        let albumKey = AnnotationKey.album(musicBrainzID: nil, albumArtist: "Nico", title: "Chelsea Girl")
        #expect(basis.annotations[albumKey]?.starred != nil, "\(basis.annotations)")
        #expect(basis.annotations[.artist(musicBrainzID: nil, name: "Joni Mitchell")]?.starred != nil)
        let t = try f.last
        #expect(t.kind == .star && t.provenance.user == "anna" && t.provenance.client == "Symfonium", "\(t.provenance)")
        #expect(t.label.hasPrefix("star ") && t.label.hasSuffix(" by anna via Symfonium"), "\(t.label)")

        // Starring again changes nothing and commits nothing.
        #expect(try await f.code("star", "id=\(f.id(0))") == nil)
        #expect(f.session.head == before + 1)

        try f.undo()
        let after = f.session.basis
        #expect(after[f.songs[0]]?.favorite != true && after[f.songs[2]]?.favorite != true && after.annotations.isEmpty)

        #expect(try await f.code("star", "id=\(f.id(1))") == nil)
        #expect(try await f.code("unstar", "id=\(f.id(1))", as: AnnotationFixture.ben) == nil)
        #expect(f.session.basis[f.songs[1]]?.favorite != true)
        #expect(try f.last.provenance.user == "ben" && f.last.provenance.client == "DSub" && f.last.label.hasPrefix("unstar "))
        await f.stop()
    }

    @Test func setRatingRatesSongsAndAlbumsAndRefusesBadRatings() async throws {
        let f = try await AnnotationFixture()
        #expect(try await f.code("setRating", "id=\(f.id(2))&rating=4") == nil)
        #expect(f.session.basis[f.songs[2]]?.rating == 4)
        #expect(try f.last.kind == .rating && f.last.provenance.user == "anna")
        let album = try #require(Catalog(f.session.basis).albums.first { $0.name == "Blue" })
        #expect(try await f.code("setRating", "id=\(album.id)&rating=5") == nil)
        #expect(f.session.basis.annotations[.album(musicBrainzID: AnnotationFixture.blueRelease, albumArtist: nil, title: "")]?.rating == 5,
                "an album with a MusicBrainz id keeps its rating under it: \(f.session.basis.annotations)")
        let rated = f.session.head
        #expect(try await f.code("setRating", "id=\(f.id(2))&rating=4") == nil)
        #expect(f.session.head == rated, "the same rating again commits nothing")
        #expect(try await f.code("setRating", "id=\(f.id(2))&rating=0") == nil)
        #expect(f.session.basis[f.songs[2]]?.rating ?? 0 == 0)
        let head = f.session.head
        #expect(try await f.code("setRating", "id=\(f.id(2))&rating=9") == 10)
        #expect(try await f.code("setRating", "id=\(f.id(2))&rating=x") == 10)
        #expect(try await f.code("setRating", "id=\(f.id(2))") == 10)
        #expect(f.session.head == head)
        await f.stop()
    }

    @Test func aScrobbleSentTwiceCountsOnceAndNowPlayingShowsIt() async throws {
        let f = try await AnnotationFixture()
        let time = 1_795_000_000_000
        #expect(try await f.code("scrobble", "id=\(f.id(0))&time=\(time)&submission=true") == nil)
        #expect(try await f.code("scrobble", "id=\(f.id(0))&time=\(time)&submission=true") == nil)
        #expect(f.session.basis[f.songs[0]]?.playcount == 1)
        #expect(try f.count(.play) == 1)
        let play = try f.last
        #expect(play.kind == .play && play.provenance.user == "anna" && play.provenance.client == "Symfonium")
        // Two pairs in one call; the default submission is true.
        #expect(try await f.code("scrobble", "id=\(f.id(1))&time=\(time + 1000)&id=\(f.id(2))&time=\(time + 2000)") == nil)
        #expect(f.session.basis[f.songs[1]]?.playcount == 1 && f.session.basis[f.songs[2]]?.playcount == 1)

        // A time far in the future is taken as now; one that is no number is error 10.
        #expect(try await f.code("scrobble", "id=\(f.id(2))&time=9223372036854775807", as: AnnotationFixture.ben) == nil)
        #expect((f.session.basis[f.songs[2]]?.lastplayed ?? .infinity) < Date().timeIntervalSince1970 + 60 && f.session.basis[f.songs[2]]?.playcount == 2)
        #expect(try await f.code("scrobble", "id=\(f.id(2))&time=\(String(repeating: "9", count: 40))") == 10)
        #expect(try await f.code("scrobble", "id=\(f.id(2))&time=-5") == 10)
        #expect(try f.count(.play) == 4)
        #expect(try await f.code("scrobble", "id=\(f.id(2))&submission=false", as: AnnotationFixture.ben) == nil)
        #expect(try f.count(.play) == 4, "now playing is no play")
        let now = try await f.json("getNowPlaying", "")
        let entries = try #require((now["nowPlaying"] as? [String: Any])?["entry"] as? [[String: Any]])
        #expect(entries.count == 1 && entries[0]["id"] as? String == f.id(2) && entries[0]["username"] as? String == "ben"
            && entries[0]["playerName"] as? String == "DSub" && entries[0]["minutesAgo"] as? Int == 0, "\(entries)")
        #expect(entries[0]["title"] as? String == "River")
        await f.stop()
    }

    /// A stream from the start counts once, whether or not the client scrobbles it too.
    @Test func aStreamAndItsScrobbleCountOnce() async throws {
        let f = try await AnnotationFixture()
        await AnnotationHooks.streamed(song: f.songs[0], caller: Caller(user: "anna", client: "Symfonium"), front: f.front)
        #expect(try await f.code("scrobble", "id=\(f.id(0))") == nil)
        #expect(f.session.basis[f.songs[0]]?.playcount == 1)
        // A browser that never scrobbles: counted once its length has passed (settle).
        await AnnotationHooks.streamed(song: f.songs[1], caller: Caller(user: "ben", client: "web"), front: f.front)
        _ = try f.front.annotations.listening.settle(at: Date().timeIntervalSince1970 + 1000)
        #expect(f.session.basis[f.songs[1]]?.playcount == 1)
        await f.stop()
    }

    /// A client that sends a star and hangs up at once still has it committed.
    @Test func aStarLandsWhenTheClientHangsUp() async throws {
        let f = try await AnnotationFixture()
        let request = "GET /rest/star.view?\(AnnotationFixture.anna)&id=\(f.id(1)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let port = f.port
        let sent: Bool = await withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: Self.sendAndHangUp(port, Array(request.utf8))) }
        }
        #expect(sent)
        try await waitUntil("the star to be committed") { f.session.basis[f.songs[1]]?.favorite == true }
        #expect(try f.last.provenance.user == "anna")
        await f.stop()
    }

    /// Connects, sends `bytes` and closes without reading the answer.
    static func sendAndHangUp(_ port: Int, _ bytes: [UInt8]) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return false }
        return bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    @Test func idsThatNameNothingAreError70AndCommitNothing() async throws {
        let f = try await AnnotationFixture()
        let head = f.session.head
        let hostile = ["../../etc/passwd", "/etc/passwd", "so-../../x", "so-\(UUID().uuidString)", "al-0123456789abcdef",
                       "ar-zzzz", String(repeating: "a", count: 100_000 / 10), "%00", "pl-\(UUID().uuidString)", ""]
        for id in hostile {
            let q = "id=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
            #expect(try await f.code("star", q) == 70, "\(id)")
            #expect(try await f.code("unstar", q) == 70, "\(id)")
            #expect(try await f.code("setRating", q + "&rating=3") == 70, "\(id)")
            #expect(try await f.code("scrobble", q) == 70, "\(id)")
        }
        // A good id beside a bad one: nothing of the call is committed.
        #expect(try await f.code("star", "id=\(f.id(0))&id=so-\(UUID().uuidString)") == 70)
        #expect(try await f.code("star", "albumId=\(f.id(0))") == 70, "a song's id is no album's")
        #expect(try await f.code("star", "") == 10)
        #expect(f.session.head == head && f.session.basis[f.songs[0]]?.favorite != true)
        await f.stop()
    }
}
