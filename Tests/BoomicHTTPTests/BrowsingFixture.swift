@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicStation
import BoomicTestSupport
import Foundation
import FoundationXML

/// The library as its session has it now: a front over it sees each commit.
struct LiveLibrary: StationLibrary {
    let session: LibrarySession
    var basis: DataBasis { session.basis }
}

/// A front on a loopback port over a copy of `Samples` (real FLAC, MP3, Ogg and WAV files with
/// their tags) imported into a temporary library, where the Miles Quartet's *Blue Sketches* and
/// its artist are starred, its first song is a rated favourite, and two songs were played.
final class BrowsingFixture: Sendable {
    let dir = TempDir("browse")
    let music: String
    let session: LibrarySession
    let server: HTTPServer
    let front: HTTPContext
    let port: Int
    /// When the favourite song was starred: the time of the transaction that set it.
    let favoriteStarredAt: Double

    static let anna = FrontFixture.anna
    /// When the album and the artist were starred.
    static let starredAt = 1_700_000_000.0

    init() async throws {
        music = dir.path + "/music"
        try FileManager.default.copyItem(atPath: Repo.samples, toPath: music)
        session = try LibrarySession.open(at: dir.path + "/library", create: true, client: .init(command: "test", version: "0"))
        _ = try ImportFlow.run(session, given: [music], reread: false, message: "import", events: SilentEvents())
        let starring = try session.commit(kind: "star", message: nil) { basis in
            let catalog = Catalog(basis)
            guard let album = catalog.albums.first(where: { $0.name == "Blue Sketches" }), let key = album.annotationKey else {
                throw RawHTTP.Failure(description: "Samples have no Blue Sketches")
            }
            let songs = catalog.songs(of: album)
            var out = AnnotationGeneration.star([key, catalog.artist(of: album).annotationKey],
                                                at: Self.starredAt, on: basis)
            out += AnnotationGeneration.star(songs: [songs.first!.id], true, on: basis)
            out += try AnnotationGeneration.rate(songs: [songs.first!.id], 4, on: basis)
            for (i, s) in songs.dropFirst().enumerated() {
                out.append(.updateSong(s.id, [.playcount: FieldChange(old: .int(0), new: .int(i + 2)),
                                              .lastplayed: FieldChange(old: .null, new: .double(1_750_000_000 + Double(i)))]))
            }
            return (out, "star")
        }
        favoriteStarredAt = starring?.transaction.timestamp ?? -1
        front = HTTPContext(library: LiveLibrary(session: session), station: nil, folders: [music],
                            authenticator: TestAccounts(), version: "9.9-test", loginDelay: .milliseconds(50), warn: { _ in })
        server = HTTPServer(context: front)
        port = try await server.start(at: HTTPAddress(host: "127.0.0.1", port: 0))
    }

    /// The catalog the front answers from, with when its favourites were starred.
    var catalog: Catalog {
        var catalog = Catalog(session.basis)
        catalog.songStarred = (try? AnnotationFlow.starredDates(session, songs: catalog.songs.map(\.id))) ?? [:]
        return catalog
    }

    func stop() async {
        await server.stop()
        session.close()
    }

    /// A JSON answer's `subsonic-response` object for `endpoint?query` as anna.
    func json(_ endpoint: String, _ query: String = "") async throws -> [String: Any] {
        let answer = try await RawHTTP.get(port, "/rest/\(endpoint)?\(Self.anna)&f=json" + (query.isEmpty ? "" : "&" + query))
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any] else {
            throw RawHTTP.Failure(description: "not a Subsonic JSON answer: \(answer)")
        }
        return response
    }

    /// The payload `name` of a successful JSON answer.
    func payload(_ endpoint: String, _ query: String = "", _ name: String) async throws -> [String: Any] {
        let response = try await json(endpoint, query)
        guard response["status"] as? String == "ok", let body = response[name] as? [String: Any] else {
            throw RawHTTP.Failure(description: "\(endpoint)?\(query): no \(name) in \(response)")
        }
        return body
    }

    /// The error code of a JSON answer, nil when it succeeded.
    func code(_ endpoint: String, _ query: String = "") async throws -> Int? {
        do {
            return ((try await json(endpoint, query))["error"] as? [String: Any])?["code"] as? Int
        } catch {
            let answer = try await RawHTTP.get(port, "/rest/\(endpoint)?\(Self.anna)&f=json" + (query.isEmpty ? "" : "&" + query))
            throw RawHTTP.Failure(description: "\(endpoint)?\(query.prefix(80)): \(answer.status) \(answer.body.prefix(200))")
        }
    }

    /// An XML answer's root element.
    func xml(_ endpoint: String, _ query: String = "") async throws -> XMLElement {
        let answer = try await RawHTTP.get(port, "/rest/\(endpoint)?\(Self.anna)" + (query.isEmpty ? "" : "&" + query))
        guard let root = try XMLDocument(xmlString: answer.body).rootElement() else {
            throw RawHTTP.Failure(description: "not XML: \(answer)")
        }
        return root
    }
}

/// Reading answers back.
enum Answer {
    static func list(_ object: [String: Any], _ name: String) -> [[String: Any]] { object[name] as? [[String: Any]] ?? [] }
    static func ids(_ list: [[String: Any]]) -> [String] { list.compactMap { $0["id"] as? String } }

    /// The children of an XML element named `name`.
    static func children(_ element: XMLElement, _ name: String) -> [XMLElement] {
        (element.children ?? []).compactMap { $0 as? XMLElement }.filter { ($0.localName ?? $0.name) == name }
    }

    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        (element.attributes ?? []).first { $0.name == name }?.stringValue
    }

    /// `value` percent-encoded for a query.
    static func escaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }
}
