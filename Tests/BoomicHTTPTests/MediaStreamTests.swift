@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// `stream` and `download` on a real library (`MediaFixture`): the file byte for byte with
/// ranges, HEAD and validators; a CUE track and every transcode decode to their own length;
/// hostile ids find nothing; many clients at once each get their file exactly.
@Suite(.serialized) struct MediaStreamTests {
    let scratch = TempDir("http-media-out")

    @Test func theFileAsItIsWithItsHeaders() async throws {
        let f = try await MediaFixture.shared.value
        let song = try f.song("01 Tone.flac")
        let file = try f.bytes(of: song.path)
        let whole = try await f.get("stream", "id=\(try f.id("01 Tone.flac"))")
        #expect(whole.status == 200)
        #expect(Bytes(whole.body) == Bytes(file))
        #expect(whole.headers["content-type"] == "audio/flac")
        #expect(whole.headers["content-length"] == String(file.count))
        #expect(whole.headers["accept-ranges"] == "bytes")
        #expect(whole.headers["last-modified"]?.hasSuffix(" GMT") == true)
        let etag = try #require(whole.headers["etag"])
        // format=raw, and format=mp3 for an MP3 within maxBitRate, are the file too.
        let raw = try await f.get("stream", "id=\(try f.id("01 Tone.flac"))&format=raw&maxBitRate=64")
        #expect(Bytes(raw.body) == Bytes(file))
        let mp3 = try await f.get("stream", "id=\(try f.id("02 Plain.mp3"))&format=mp3&maxBitRate=320")
        #expect(Bytes(mp3.body) == Bytes(try f.bytes(of: try f.song("02 Plain.mp3").path)))
        #expect(mp3.headers["content-type"] == "audio/mpeg")
        // A client that has it is told so.
        let again = try await f.get("stream", "id=\(try f.id("01 Tone.flac"))", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
    }

    @Test func rangesAreByteExact() async throws {
        let f = try await MediaFixture.shared.value
        let id = try f.id("01 Tone.flac")
        let file = try f.bytes(of: try f.song("01 Tone.flac").path)
        let n = file.count
        let cases: [(String, Range<Int>)] = [
            ("bytes=0-99", 0..<100),
            ("bytes=1000-70999", 1000..<71000),
            ("bytes=-500", (n - 500)..<n),
            ("bytes=12345-", 12345..<n),
            ("bytes=\(n - 10)-\(n + 1000)", (n - 10)..<n),
            ("bytes=0-0", 0..<1),
        ]
        for (header, expected) in cases {
            let answer = try await f.get("stream", "id=\(id)", headers: ["Range": header])
            #expect(answer.status == 206, "\(header)")
            #expect(Bytes(answer.body) == Bytes(file[expected]), "\(header)")
            #expect(answer.headers["content-range"] == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(n)", "\(header)")
            #expect(answer.headers["content-length"] == String(expected.count), "\(header)")
        }
        for header in ["bytes=\(n)-", "bytes=99999999999999999999-", "bytes=-0", "bytes=abc", "items=0-1", "bytes=50-10"] {
            let answer = try await f.get("stream", "id=\(id)", headers: ["Range": header])
            #expect(answer.status == 416, "\(header)")
            #expect(answer.headers["content-range"] == "bytes */\(n)", "\(header)")
        }
        // Several ranges: the whole file.
        let several = try await f.get("stream", "id=\(id)", headers: ["Range": "bytes=0-1,5-9"])
        #expect(several.status == 200)
        #expect(Bytes(several.body) == Bytes(file))
    }

    @Test func headAnswersTheHeadersAlone() async throws {
        let f = try await MediaFixture.shared.value
        let file = try f.bytes(of: try f.song("01 Tone.flac").path)
        let head = try await f.get("stream", "id=\(try f.id("01 Tone.flac"))", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == String(file.count))
        #expect(head.headers["accept-ranges"] == "bytes")
        let part = try await f.get("stream", "id=\(try f.id("01 Tone.flac"))", headers: ["Range": "bytes=-10"], method: "HEAD")
        #expect(part.status == 206)
        #expect(part.body.isEmpty)
        #expect(part.headers["content-range"] == "bytes \(file.count - 10)-\(file.count - 1)/\(file.count)")
    }

    @Test func downloadIsTheFileAsAnAttachment() async throws {
        let f = try await MediaFixture.shared.value
        let file = try f.bytes(of: try f.song("02 Plain.mp3").path)
        let answer = try await f.get("download", "id=\(try f.id("02 Plain.mp3"))&format=opus")
        #expect(answer.status == 200)
        #expect(Bytes(answer.body) == Bytes(file))
        #expect(answer.headers["content-disposition"] == "attachment; filename=\"02 Plain.mp3\"; filename*=UTF-8''02%20Plain.mp3")
        let part = try await f.get("download", "id=\(try f.id("02 Plain.mp3"))", headers: ["Range": "bytes=100-199"])
        #expect(part.status == 206)
        #expect(Bytes(part.body) == Bytes(file[100..<200]))
    }

    /// Track 2 of the image is (305 − 160) × 588 samples: streamed as MP3 at 320 kbit/s, never
    /// the image, and decoded back to that length within MP3's delay and padding.
    @Test func aCUETrackStreamsAsItsOwnAudio() async throws {
        let f = try await MediaFixture.shared.value
        let track = try f.song(CueImage.titles[1])
        let frames = CueImage.starts[2] - CueImage.starts[1]
        let image = try f.bytes(of: track.path)
        for endpoint in ["stream", "download"] {
            let answer = try await f.get(endpoint, "id=\(CatalogID.song(track.id))&format=raw")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "audio/mpeg")
            #expect(answer.body.count < image.count)
            let decoded = try decodedFrames(answer.body, suffix: "mp3", in: scratch)
            #expect(decoded.rate == 44_100)
            #expect(decoded.frames >= frames && decoded.frames <= frames + 2 * 1152, "\(decoded.frames) frames, \(frames) in the track")
        }
        // 320 kbit/s: the body is about the track's length at that rate (frames' padding aside).
        let answer = try await f.get("stream", "id=\(CatalogID.song(track.id))")
        let expected = Double(frames) / 44_100 * 320_000 / 8
        #expect(abs(Double(answer.body.count) - expected) < expected * 0.15, "\(answer.body.count) bytes, about \(expected) expected")
        let disposition = try await f.get("download", "id=\(CatalogID.song(track.id))")
        #expect(disposition.headers["content-disposition"]?.contains("filename*=UTF-8''Na%C3%AFve.mp3") == true)
    }

    @Test(arguments: ["opus", "ogg", "mp3"])
    func aTranscodeDecodesToTheSongsLength(_ format: String) async throws {
        let f = try await MediaFixture.shared.value
        let id = try f.id("01 Tone.flac")
        let whole = try await f.get("stream", "id=\(id)&format=\(format)")
        #expect(whole.status == 200)
        #expect(whole.headers["accept-ranges"] == "none")
        let opus = format != "mp3"
        #expect(whole.headers["content-type"] == (opus ? "audio/ogg" : "audio/mpeg"))
        let decoded = try decodedFrames(whole.body, suffix: opus ? "opus" : "mp3", in: scratch)
        // timeOffset (transcodeOffset) starts 2 s in: 3 s are left.
        let later = try await f.get("stream", "id=\(id)&format=\(format)&timeOffset=2")
        let rest = try decodedFrames(later.body, suffix: opus ? "opus" : "mp3", in: scratch)
        if opus {
            #expect(abs(decoded.frames - 5 * 48_000) <= 48, "\(decoded.frames)")
            #expect(abs(rest.frames - 3 * 48_000) <= 48, "\(rest.frames)")
        } else {
            #expect(decoded.frames >= 5 * 44_100 && decoded.frames <= 5 * 44_100 + 2 * 1152, "\(decoded.frames)")
            #expect(rest.frames >= 3 * 44_100 && rest.frames <= 3 * 44_100 + 2 * 1152, "\(rest.frames)")
        }
    }

    /// `maxBitRate` below the file's rate alone transcodes to Opus at that rate;
    /// `estimateContentLength` promises duration × rate ÷ 8 bytes and sends exactly that many.
    @Test func maxBitRateAndEstimatedLength() async throws {
        let f = try await MediaFixture.shared.value
        let id = try f.id("01 Tone.flac")
        let limited = try await f.get("stream", "id=\(id)&maxBitRate=96")
        #expect(limited.headers["content-type"] == "audio/ogg")
        #expect(abs(try decodedFrames(limited.body, suffix: "opus", in: scratch).frames - 5 * 48_000) <= 48)
        let estimated = try await f.get("stream", "id=\(id)&format=mp3&maxBitRate=128&estimateContentLength=true")
        #expect(estimated.headers["content-length"] == "80000")
        #expect(estimated.body.count == 80_000)
        let head = try await f.get("stream", "id=\(id)&format=mp3&maxBitRate=128&estimateContentLength=true", method: "HEAD")
        #expect(head.headers["content-length"] == "80000")
        #expect(head.body.isEmpty)
    }

    /// Ids that are paths, of nothing, or of a song whose file lies outside the music folders
    /// find nothing: error 70, and no byte of the file.
    @Test func hostileIDsFindNothing() async throws {
        let f = try await MediaFixture.shared.value
        // A song the library holds at a path outside its music folders.
        let outside = Song(id: SongID(UUID()), path: "/etc/passwd")
        _ = try f.session.commit(kind: .import, message: nil) { _ in ([Assertion.addSong(outside)], "add") }
        let front = HTTPContext(library: FixedLibraryOf(session: f.session), station: nil, folders: [f.music],
                                authenticator: TestAccounts(), version: "t", loginDelay: .milliseconds(10), warn: { _ in })
        let server = HTTPServer(context: front)
        let port = try await server.start(at: HTTPAddress(host: "127.0.0.1", port: 0))
        let ids = ["../../../../etc/passwd", "/etc/passwd", f.music + "/Album/01 Tone.flac", "so-\(UUID().uuidString)",
                   "so-../../etc/passwd", CatalogID.song(outside.id), String(repeating: "a", count: 10_000), "al-0000000000000000"]
        for endpoint in ["stream", "download", "getLyricsBySongId", "getCoverArt"] {
            for id in ids {
                let encoded = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
                let answer = try await MediaHTTP.send(port, "GET", "/rest/\(endpoint).view?\(MediaFixture.auth)&f=json&id=\(encoded)")
                let body = String(decoding: answer.body, as: UTF8.self)
                #expect(body.contains("\"code\":70"), "\(endpoint) \(id.prefix(40)): \(body.prefix(200))")
                #expect(!body.contains("root:"), "\(endpoint) \(id.prefix(40))")
            }
            let none = try await MediaHTTP.send(port, "GET", "/rest/\(endpoint).view?\(MediaFixture.auth)&f=json")
            #expect(String(decoding: none.body, as: UTF8.self).contains("\"code\":10"), "\(endpoint) without id")
        }
        await server.stop()
    }

    /// 50 clients at once, each streaming one of the files (not transcodes), each get it byte
    /// for byte.
    @Test func fiftyConcurrentStreamsAreByteExact() async throws {
        let f = try await MediaFixture.shared.value
        let names = ["01 Tone.flac", "02 Plain.mp3", "Long.flac"]
        var files: [String: [UInt8]] = [:]
        var ids: [String: String] = [:]
        for name in names {
            files[name] = try f.bytes(of: try f.song(name).path)
            ids[name] = try f.id(name)
        }
        let (want, idsByName) = (files, ids)
        let results = try await withThrowingTaskGroup(of: (String, MediaHTTP.Answer).self) { group in
            for i in 0..<50 {
                let name = idsByName.keys.sorted()[i % idsByName.count]
                group.addTask { (name, try await f.get("stream", "id=\(idsByName[name]!)")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50)
        for (name, answer) in results {
            #expect(answer.status == 200, "\(name)")
            #expect(Bytes(answer.body) == Bytes(want[name] ?? []), "\(name)")
        }
    }
}

/// The session's newest basis at each call (a song committed by a test is seen).
struct FixedLibraryOf: StationLibrary {
    let session: LibrarySession
    var basis: DataBasis { session.basis }
}
