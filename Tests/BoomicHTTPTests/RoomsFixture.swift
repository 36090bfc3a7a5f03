@testable import BoomicHTTP
import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// A front over a station of one room (`default`, on the `null` output, paced as a sound card
/// is) and a library of tones, with anna logged in on the page.
final class RoomsFixture: Sendable {
    let dir = TempDir("rooms")
    let session: LibrarySession
    let songs: [SongID]
    let station: Station
    let front: HTTPContext
    let server: HTTPServer
    let port: Int
    let cookie: String
    let csrf: String

    init(songs count: Int = 3) async throws {
        let root = dir.path
        session = try LibrarySession.open(at: root + "/library", create: true, client: .init(command: "test", version: "0"))
        var made: [Song] = []
        // One tone made by sox, copied: the songs differ by their tags.
        let tone = root + "/tone0.wav"
        _ = try toolOutput(["sox", "-R", "-n", "-r", "8000", "-b", "16", "-c", "1", tone, "synth", "60", "sine", "440"])
        for i in 0..<count {
            let path = root + "/tone\(i).wav"
            if i > 0 { try FileManager.default.copyItem(atPath: tone, toPath: path) }
            var song = Song(id: SongID(UUID()), path: path)
            song.title = "Tone \(i)"
            song.artists = ["Sine"]
            song.album = "Tones"
            made.append(song)
        }
        _ = try session.commit(kind: .import, message: nil) { _ in (made.map(Assertion.addSong), "add") }
        songs = made.map(\.id)
        let library = FixedLibrary(session: session, basis: session.basis)
        station = Station(library: library, store: try PlayerStateStore(libraryLocation: session.location), outputs: [.null],
                          settings: RoomSettings(sound: SoundSettings(), realtime: true, record: false, keepsVolume: false, warnsEvents: false),
                          warn: { _ in })
        front = HTTPContext(library: library, station: station, folders: [root], authenticator: TestAccounts(),
                            version: "9.9-test", loginDelay: .milliseconds(10), warn: { _ in })
        server = HTTPServer(context: front)
        port = try await server.start(at: HTTPAddress(host: "127.0.0.1", port: 0))
        let login = try await RawHTTP.send(port, "POST", "/login", headers: WebSessionTests.form, body: "user=anna&password=sesame")
        cookie = String(try #require(login.headers["set-cookie"], "\(login)").prefix { $0 != ";" })
        let me = try await RawHTTP.get(port, "/api/session", headers: ["Cookie": cookie])
        csrf = try #require(try WebSessionTests.object(me)["csrf"] as? String)
    }

    var room: RoomPlayer { station.player("default")! }

    /// `POST api/PATH` with the session and its token.
    func post(_ path: String, _ body: String = "{}", token: Bool = true) async throws -> RawHTTP.Answer {
        var headers = ["Cookie": cookie, "Content-Type": "application/json"]
        if token { headers["X-CSRF-Token"] = csrf }
        return try await RawHTTP.send(port, "POST", "/api/" + path, headers: headers, body: body)
    }

    /// The room's queue filled with the tones, playing the first.
    func play() throws {
        try room.perform([.queue(.add(songs, at: .end)), .queue(.play(nil))])
    }

    /// An event stream of the session.
    func events(reads: Bool = true, headers: [String: String] = [:]) throws -> EventStreamClient {
        try EventStreamClient(port: port, path: "/api/rooms/events", headers: ["Cookie": cookie].merging(headers) { $1 }, reads: reads)
    }

    func stop() async {
        await server.stop()
        station.quitAll()
        session.close()
    }
}
