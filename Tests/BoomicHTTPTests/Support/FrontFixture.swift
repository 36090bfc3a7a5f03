@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicStation
import BoomicTestSupport
import Foundation
import Synchronization

/// The stand-in for BoomicAccounts: anna (an administrator, password "sesame", key
/// "key-anna"), ben (password "bens"), and carl, whose account takes no token (41).
struct TestAccounts: SubsonicAuthenticator {
    /// The token of "sesame" with the salt "c19b2d": MD5("sesamec19b2d").
    static let annaToken = "26719a1196d2a940705a59634eb18eab"
    static let annaSalt = "c19b2d"

    func authenticate(user: String, token: String, salt: String) async -> SubsonicLogin {
        if user == "carl" { return .refused(.tokenNotSupported) }
        return user == "anna" && token == Self.annaToken && salt == Self.annaSalt ? .user("anna") : .refused(.wrongCredentials)
    }

    func authenticate(user: String, password: String) async -> SubsonicLogin {
        switch (user, password) {
        case ("anna", "sesame"): .user("anna")
        case ("ben", "bens"): .user("ben")
        default: .refused(.wrongCredentials)
        }
    }

    func authenticate(apiKey: String) async -> SubsonicLogin { apiKey == "key-anna" ? .user("anna") : .refused(.invalidAPIKey) }

    func users() async -> [SubsonicUser] {
        [SubsonicUser(name: "anna", isAdmin: true, email: "anna@example.org"), SubsonicUser(name: "ben", isAdmin: false)]
    }
}

/// A front on a loopback port over a library of two songs in a temporary folder, with the
/// stand-in accounts; what it warned is kept.
final class FrontFixture: Sendable {
    let dir = TempDir("http")
    let session: LibrarySession
    let server: HTTPServer
    let front: HTTPContext
    let port: Int
    private let notes = Notes()
    /// Holds a `startScan` until the test lets it go.
    let scanGate = DispatchSemaphore(value: 0)

    /// Credentials of anna by password, for the calls that only need a user.
    static let anna = "u=anna&p=sesame&v=1.16.1&c=test"

    init(basePath: String = "", endpoints: [SubsonicEndpoint] = SubsonicEndpoints.all, webRoutes: [WebRoute] = WebAPI.all) async throws {
        let root = dir.path
        session = try LibrarySession.open(at: root + "/library", create: true, client: .init(command: "test", version: "0"))
        let songs = (0..<2).map { i -> Song in
            var song = Song(id: SongID(UUID()), path: root + "/music/\(i).flac")
            song.title = "Song \(i)"
            return song
        }
        _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
        let gate = scanGate
        front = HTTPContext(library: FixedLibrary(session: session, basis: session.basis), station: nil,
                            folders: [root + "/music", root + "/More Music"], authenticator: TestAccounts(),
                            version: "9.9-test", basePath: basePath, loginDelay: .milliseconds(50), endpoints: endpoints, webRoutes: webRoutes,
                            rescan: { [notes] in
                                gate.wait()
                                notes.scans.withLock { $0 += 1 }
                            },
                            warn: { [notes] line in notes.warnings.withLock { $0.append(line) } })
        server = HTTPServer(context: front)
        port = try await server.start(at: HTTPAddress(host: "127.0.0.1", port: 0))
    }

    var warned: [String] { notes.warnings.withLock { $0 } }
    /// The rescans run.
    var scans: Int { notes.scans.withLock { $0 } }

    /// What the front told the fixture.
    final class Notes: Sendable {
        let warnings = Mutex<[String]>([])
        let scans = Mutex(0)
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> RawHTTP.Answer {
        try await RawHTTP.get(port, path, headers: headers)
    }

    /// A JSON answer's `subsonic-response` object.
    func json(_ path: String, headers: [String: String] = [:]) async throws -> [String: Any] {
        let answer = try await get(path, headers: headers)
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any] else {
            throw RawHTTP.Failure(description: "not a Subsonic JSON answer: \(answer)")
        }
        return response
    }

    /// The error code of a JSON answer, nil when it succeeded.
    func code(_ path: String) async throws -> Int? {
        let response = try await json(path)
        return (response["error"] as? [String: Any])?["code"] as? Int
    }

    func stop() async {
        scanGate.signal()
        await server.stop()
        session.close()
    }
}
