@testable import BoomicHTTP
import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// A real small library for the media endpoints' tests, imported as `boomic import` imports it:
/// a FLAC with an embedded 400×300 cover and synced (LRC) lyrics, an MP3 with unsynced lyrics
/// in its USLT frame and no picture, a CUE image of three tracks, and a ten-minute FLAC of
/// 8 kHz mono (small, long to transcode) for the slow client; served by a front on a loopback
/// port. Made once per test process (`shared`): making and importing the files is most of the
/// suites' time.
final class MediaFixture: Sendable {
    let dir = TempDir("http-media")
    let session: LibrarySession
    let server: HTTPServer
    let front: HTTPContext
    let port: Int
    let music: String
    /// The catalog of the imported library (song, album ids).
    let catalog: Catalog

    static let auth = "u=anna&p=sesame&v=1.16.1&c=test"
    static let lrc = "[ar:Ann]\n[ti:Tone]\n[offset:+250]\n[00:01.50]First line\n[00:03.25][00:04.00]Twice\n[00:00.10]Opening\n"
    static let unsynced = "A plain verse\nand its second line"

    /// The one fixture of this test process.
    static let shared = Task { try await MediaFixture() }

    init() async throws {
        music = dir.path + "/music"
        let album = music + "/Album", image = music + "/Image"
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)

        // A 400×300 JPEG: a BMP drawn here, re-encoded by boomic-ffmpeg's scaler at its own size.
        let cover = try await ImageScaler.scale(Self.bmp(width: 400, height: 300), longerSide: 400, name: "cover.bmp")
        try Data(cover).write(to: URL(fileURLWithPath: dir.file("cover.jpg")))
        try Self.lrc.write(toFile: dir.file("lyrics.lrc"), atomically: true, encoding: .utf8)

        let tone = album + "/01 Tone.flac"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", tone,
                        "synth", "5", "sine", "300-3000", "sine", "441", "gain", "-3"])
        try toolOutput(["metaflac", "--set-tag=ARTIST=Ann", "--set-tag=ALBUM=Album", "--set-tag=TITLE=Tone",
                        "--set-tag=TRACKNUMBER=1", "--set-tag-from-file=LYRICS=" + dir.file("lyrics.lrc"),
                        "--import-picture-from=3||||" + dir.file("cover.jpg"), tone])

        let wav = dir.file("plain.wav")
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", wav, "synth", "3", "sine", "500", "gain", "-6"])
        let plain = album + "/02 Plain.mp3"
        try toolOutput(["lame", "--quiet", "-b", "128", "--ta", "Ann", "--tl", "Album", "--tt", "Plain", "--tn", "2", wav, plain])
        try toolOutput(["/usr/bin/python3", "-c", """
            import sys
            from mutagen.id3 import ID3, USLT
            tags = ID3(sys.argv[1])
            tags.add(USLT(encoding=3, lang='eng', desc='', text=sys.argv[2]))
            tags.save()
            """, plain, Self.unsynced])

        try CueImage.make(in: image)
        let long = music + "/Long.flac"
        try toolOutput(["sox", "-R", "-n", "-r", "8000", "-b", "16", "-c", "1", long, "synth", "600", "sine", "440", "gain", "-6"])
        try toolOutput(["metaflac", "--set-tag=TITLE=Long", "--set-tag=ARTIST=Nobody", long])

        session = try LibrarySession.open(at: dir.path + "/library", create: true, client: .init(command: "test", version: "0"))
        _ = try session.addFolders([music])
        _ = try ImportFlow.run(session, given: [], within: [], reread: false, message: "test import", events: SilentEvents())
        catalog = Catalog(session.basis)
        front = HTTPContext(library: FixedLibrary(session: session, basis: session.basis), station: nil,
                            folders: [music], authenticator: TestAccounts(), version: "9.9-test",
                            loginDelay: .milliseconds(50), warn: { _ in })
        server = HTTPServer(context: front)
        port = try await server.start(at: HTTPAddress(host: "127.0.0.1", port: 0))
        CoverCache.folderOverride.withLock { $0 = dir.path + "/cache/covers" }
    }

    /// The song whose file name ends with `suffix` (a CUE track: its title).
    func song(_ name: String) throws -> Song {
        let found = catalog.songs.first { $0.path.hasSuffix("/" + name) || ($0.start != nil && $0.title == name) }
        return try #require(found, "no song \(name) in \(catalog.songs.map(\.path))")
    }

    func id(_ name: String) throws -> String { CatalogID.song(try song(name).id) }

    /// `/rest/ENDPOINT.view?…` with anna's credentials.
    func path(_ endpoint: String, _ query: String) -> String { "/rest/\(endpoint).view?\(Self.auth)&\(query)" }

    func get(_ endpoint: String, _ query: String, headers: [String: String] = [:], method: String = "GET") async throws -> MediaHTTP.Answer {
        try await MediaHTTP.send(port, method, path(endpoint, query), headers: headers)
    }

    /// A JSON answer's `subsonic-response`.
    func json(_ endpoint: String, _ query: String) async throws -> [String: Any] {
        let answer = try await get(endpoint, query + "&f=json")
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        return try #require(object?["subsonic-response"] as? [String: Any], "not JSON: \(answer)")
    }

    /// The error code of the call's JSON answer; nil when it is no error.
    func errorCode(_ endpoint: String, _ query: String) async throws -> Int? {
        let answer = try await get(endpoint, query + "&f=json")
        guard answer.headers["content-type"]?.contains("json") == true else { return nil }
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        return ((object?["subsonic-response"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int
    }

    func bytes(of path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// A 24-bit BMP of a gradient, `width` × `height`.
    static func bmp(width: Int, height: Int) -> [UInt8] {
        let row = (width * 3 + 3) & ~3
        let size = 54 + row * height
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var b: [UInt8] = Array("BM".utf8) + le(size, 4) + le(0, 4) + le(54, 4)
        b += le(40, 4) + le(width, 4) + le(height, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(row * height, 4)
        b += le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4)
        for y in 0..<height {
            var line: [UInt8] = []
            for x in 0..<width { line += [UInt8(x * 255 / width), UInt8(y * 255 / height), 128] }
            b += line + [UInt8](repeating: 0, count: row - width * 3)
        }
        return b
    }

    /// A JPEG's width and height, from its first SOF marker.
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]))
            }
            i += 2 + length
        }
        return nil
    }
}

/// Frames decoded by Boomic's own decoder for a file's suffix, and its rate.
func decodedFrames(_ bytes: [UInt8], suffix: String, in dir: TempDir) throws -> (frames: Int, rate: Int) {
    let path = dir.file("decoded-\(UUID().uuidString).\(suffix)")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let decoder = try Decoders.open(path)
    var frames = 0
    var block: [Int32] = []
    while true {
        block.removeAll(keepingCapacity: true)
        let n = try decoder.read(into: &block, maxFrames: 8192)
        if n == 0 { break }
        frames += n
    }
    return (frames, decoder.format.sampleRate)
}

/// Bytes compared in a test: a failure names their count and first bytes, not every byte.
struct Bytes: Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ bytes: ArraySlice<UInt8>) { self.bytes = Array(bytes) }
    var description: String {
        "\(bytes.count) bytes: " + bytes.prefix(24).map { String($0, radix: 16) }.joined(separator: " ")
            + " \(String(decoding: bytes.prefix(80), as: UTF8.self).filter { $0.isASCII && !$0.isNewline })\n"
    }
}
