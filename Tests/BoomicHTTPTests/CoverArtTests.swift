@testable import BoomicHTTP
import BoomicAudio
import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// `getCoverArt`: the embedded picture as it is, scaled to `size` (a JPEG of that longer side),
/// cached on disk and read from there again; by song, album and artist id and by the catalog's
/// `coverArt` value; none is error 70.
@Suite(.serialized) struct CoverArtTests {
    @Test func theEmbeddedPictureAsItIs() async throws {
        let f = try await MediaFixture.shared.value
        let embedded = try f.bytes(of: f.dir.file("cover.jpg"))
        let song = try f.song("01 Tone.flac")
        let album = try #require(f.catalog.album(of: song))
        let artist = f.catalog.artist(of: album)
        for id in [CatalogID.song(song.id), album.id, artist.id, try #require(album.coverArt)] {
            let answer = try await f.get("getCoverArt", "id=\(id)")
            #expect(answer.status == 200, "\(id)")
            #expect(answer.headers["content-type"] == "image/jpeg", "\(id)")
            #expect(Bytes(answer.body) == Bytes(embedded), "\(id)")
        }
        let size = try #require(MediaFixture.jpegSize(embedded))
        #expect(size == (400, 300))
    }

    @Test func aSizeScalesAndIsCached() async throws {
        let f = try await MediaFixture.shared.value
        let song = try f.song("01 Tone.flac")
        let id = CatalogID.song(song.id)
        let cached = CoverCache.path(hash: try #require(song.art), size: 100)
        try? FileManager.default.removeItem(atPath: cached)
        let scaled = try await f.get("getCoverArt", "id=\(id)&size=100")
        #expect(scaled.status == 200)
        #expect(scaled.headers["content-type"] == "image/jpeg")
        let size = try #require(MediaFixture.jpegSize(scaled.body), "\(Bytes(scaled.body))")
        #expect(size == (100, 75))
        #expect(try f.bytes(of: cached) == scaled.body)
        // The next call is the cache's file: one put there by hand is what comes back.
        let marker = try await ImageScaler.scale(MediaFixture.bmp(width: 20, height: 10), longerSide: 20)
        try Data(marker).write(to: URL(fileURLWithPath: cached))
        let hit = try await f.get("getCoverArt", "id=\(id)&size=100")
        #expect(Bytes(hit.body) == Bytes(marker))
        try FileManager.default.removeItem(atPath: cached)
        // A size larger than the picture: not enlarged.
        let large = try await f.get("getCoverArt", "id=\(id)&size=1000")
        let largeSize = try #require(MediaFixture.jpegSize(large.body), "\(Bytes(large.body))")
        #expect(largeSize == (400, 300))
    }

    @Test func noPictureIsError70() async throws {
        let f = try await MediaFixture.shared.value
        #expect(try await f.errorCode("getCoverArt", "id=\(try f.id("02 Plain.mp3"))") == 70)
        #expect(try await f.errorCode("getCoverArt", "id=0123456789abcdef") == 70)
        #expect(try await f.errorCode("getCoverArt", "id=../../etc/passwd") == 70)
    }

    @Test func theCacheIsBounded() throws {
        try withTemporaryDirectory("covers") { dir in
            for i in 0..<45 {
                _ = FileManager.default.createFile(atPath: "\(dir)/\(i).jpg", contents: Data([1]))
            }
            CoverCache.trim(dir, limit: 50)
            let kept = try FileManager.default.contentsOfDirectory(atPath: dir).count
            #expect(kept == 45)
            for i in 45..<52 {
                _ = FileManager.default.createFile(atPath: "\(dir)/\(i).jpg", contents: Data([1]))
            }
            CoverCache.trim(dir, limit: 50)
            let trimmed = try FileManager.default.contentsOfDirectory(atPath: dir).count
            #expect(trimmed == 37)
        }
    }
}
