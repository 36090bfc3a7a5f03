@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicStation
import BoomicTestSupport
import Foundation
import Synchronization

/// A front on a loopback port over a library of three songs (two on Nico's "Chelsea Girl", one
/// on Joni Mitchell's "Blue", which has a MusicBrainz release id) in a temporary folder, that can
/// be stopped and started again on the same library (what a restart of `boomic serve` keeps).
final class AnnotationFixture: Sendable {
    let dir = TempDir("annot")
    let session: LibrarySession
    /// Chelsea Girl's two songs, then Blue's.
    let songs: [SongID]
    private let running = Mutex<(server: HTTPServer, front: HTTPContext, port: Int)?>(nil)

    /// Blue's MusicBrainz release id: its star is kept under it.
    static let blueRelease = "2c1a4fb4-5a1b-4bd0-a2b4-6e2bd8d7a9e1"

    static let anna = "u=anna&p=sesame&v=1.16.1&c=Symfonium&f=json"
    static let ben = "u=ben&p=bens&v=1.16.1&c=DSub&f=json"

    init() async throws {
        let root = dir.path
        session = try LibrarySession.open(at: root + "/library", create: true, client: .init(command: "test", version: "0"))
        let made: [(String, String, String)] = [("These Days", "Chelsea Girl", "Nico"), ("Chelsea Girls", "Chelsea Girl", "Nico"),
                                                ("River", "Blue", "Joni Mitchell")]
        let songs = made.enumerated().map { i, m -> Song in
            var song = Song(id: SongID(UUID()), path: root + "/music/\(i).flac")
            song.title = m.0
            song.album = m.1
            song.artists = [m.2]
            song.duration = 200
            if m.1 == "Blue" { song.mbAlbumID = Self.blueRelease }
            return song
        }
        self.songs = songs.map(\.id)
        _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
        try await start()
    }

    func start() async throws {
        let front = HTTPContext(library: FixedLibrary(session: session, basis: session.basis), station: nil,
                                folders: [dir.path + "/music"], authenticator: TestAccounts(), version: "9.9-test",
                                loginDelay: .milliseconds(10), warn: { _ in })
        let server = HTTPServer(context: front)
        let port = try await server.start(at: HTTPAddress(host: "127.0.0.1", port: 0))
        running.withLock { $0 = (server, front, port) }
    }

    func restart() async throws {
        await stopServer()
        try await start()
    }

    var port: Int { running.withLock { $0!.port } }
    var front: HTTPContext { running.withLock { $0!.front } }

    func id(_ index: Int) -> String { CatalogID.song(songs[index]) }

    /// A JSON answer's `subsonic-response` object, for `/rest/NAME?QUERY`.
    func json(_ name: String, _ query: String, as user: String = anna) async throws -> [String: Any] {
        let answer = try await RawHTTP.get(port, "/rest/\(name).view?\(user)&\(query)")
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any] else {
            throw RawHTTP.Failure(description: "not a Subsonic JSON answer: \(answer)")
        }
        return response
    }

    /// The error code of a call, nil when it succeeded.
    func code(_ name: String, _ query: String, as user: String = anna) async throws -> Int? {
        (try await json(name, query, as: user)["error"] as? [String: Any])?["code"] as? Int
    }

    /// The newest transaction of the log.
    var last: Transaction { get throws { try session.entry(seq: session.head).transaction } }

    /// The transactions of the log whose kind is `kind`.
    func count(_ kind: Transaction.Kind) throws -> Int {
        try session.summaries(newestFirst: true, limit: nil, includePlays: true).filter { $0.kind == kind.rawValue }.count
    }

    /// Takes back the newest change as `boomic undo` does.
    func undo() throws {
        guard let plan = try session.undoStack().undoPlan(count: 1) else { throw RawHTTP.Failure(description: "nothing to undo") }
        _ = try RollbackFlow(lib: session, targetSeq: plan.targetSeq, kind: .undo, label: "undo",
                             undoes: plan.steps.map(\.id)).commit(message: nil)
    }

    private func stopServer() async {
        guard let (server, _, _) = running.withLock({ r in defer { r = nil }; return r }) else { return }
        await server.stop()
    }

    func stop() async {
        await stopServer()
        session.close()
    }
}
