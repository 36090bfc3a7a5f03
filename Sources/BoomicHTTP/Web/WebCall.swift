import BoomicCore
import BoomicLibrary
import BoomicStation
import Foundation
import Hummingbird

/// One call of the page's API as a handler sees it: who (the session's user), what (the path's
/// parts, the query, the JSON body), from where, and the front it reads (the newest basis, the
/// library session, the station, the catalog).
public struct WebCall: Sendable {
    /// The logged-in user.
    public let user: String
    public let session: WebSessions.Session
    /// The `{name}` parts of the route's path.
    public let pathParts: Parameters
    /// The query string's parameters (`?q=kind&limit=20`).
    public let query: SubsonicParameters
    /// The request's body as sent (a JSON document for a change); empty for GET.
    public let body: ByteBuffer
    public let head: HTTPRequest
    public let origin: ForwardedOrigin
    public let front: HTTPContext
    /// The library as of this call: read once when the call starts, so that every part of an
    /// answer comes from one snapshot.
    public let basis: DataBasis

    public init(session: WebSessions.Session, pathParts: Parameters, query: SubsonicParameters, body: ByteBuffer,
                head: HTTPRequest, origin: ForwardedOrigin, front: HTTPContext) {
        user = session.user
        self.session = session
        self.pathParts = pathParts
        self.query = query
        self.body = body
        self.head = head
        self.origin = origin
        self.front = front
        basis = front.basis
    }

    /// The library session (its history, its commits).
    public var library: LibrarySession { front.library.session }
    public var station: Station? { front.station }

    /// Who the page's changes name: the user, through the client "web". Every transaction the
    /// page commits carries it (`boomic history`: "… by anna via web").
    public var caller: Caller { Caller(user: user, client: "web") }

    /// The path part `name` (`{id}` in `albums/{id}`); 404 when the route has none such.
    public func path(_ name: String) throws(WebError) -> String {
        guard let value = pathParts.get(name) else { throw WebError.notFound("No \(name) in the path.") }
        return value
    }

    /// The body decoded as `T` from JSON; 400 naming what is wrong when it is not.
    public func json<T: Decodable>(_ type: T.Type) throws(WebError) -> T {
        guard body.readableBytes > 0 else { throw WebError.badRequest("The request needs a JSON body.") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch {
            throw WebError.badRequest("The body is not the JSON expected: \(Self.reason(error))")
        }
    }

    /// The catalog of the library as it is now (shared with `/rest`, built once per basis).
    public func catalog() async -> Catalog {
        await front.catalogs.catalog(of: front.basis, session: front.library.session).catalog
    }

    /// Runs a change on the front's commit queue (one at a time, off the event loops and the
    /// tasks' pool; carried to its end when the page hangs up) and gives what it returned.
    public func commit<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await front.annotations.run(body)
    }

    /// Generates on the latest basis and commits, on the commit queue, one transaction whose
    /// provenance names the user and the client "web" (`caller`); nil when nothing changes. A
    /// library error is the caller's to turn into a `WebError`.
    public func commit(kind: Transaction.Kind, message: String? = nil, undoes: [UUID]? = nil,
                       _ generate: @escaping @Sendable (DataBasis) throws -> (assertions: [Assertion], label: String)?) async throws
        -> (seq: Int, transaction: Transaction)? {
        let (library, caller) = (library, caller)
        return try await commit {
            try library.commit(kind: kind, message: message, undoes: undoes, caller: caller, generate)
        }
    }

    /// A decoding error in a few words: the key or the value that did not fit.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, _): "no \(key.stringValue)"
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not the right type"
        case let DecodingError.dataCorrupted(context): context.debugDescription
        default: "\(error)"
        }
    }
}
