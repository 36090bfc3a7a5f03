import BoomicCore
import BoomicStation
import Hummingbird

/// One API call as a handler sees it: who (the user, the client's `c`), what (the parameters),
/// from where, and the front it reads (the newest basis, the station, the accounts).
public struct SubsonicCall: Sendable {
    /// The endpoint's name, without `.view`.
    public let endpoint: String
    public let parameters: SubsonicParameters
    /// The account the call authenticated as; nil only on an endpoint open to all
    /// (`getOpenSubsonicExtensions`).
    public let user: String?
    public let origin: ForwardedOrigin
    /// The HTTP request's head (`Range`, `If-None-Match`, … for media endpoints).
    public let head: HTTPRequest
    public let front: HTTPContext
    /// The library as of this call: read once when the call starts, so that every part of an
    /// answer comes from one snapshot.
    public let basis: DataBasis

    public init(endpoint: String, parameters: SubsonicParameters, user: String?, origin: ForwardedOrigin,
                head: HTTPRequest, front: HTTPContext) {
        self.endpoint = endpoint
        self.parameters = parameters
        self.user = user
        self.origin = origin
        self.head = head
        self.front = front
        basis = front.basis
    }

    /// The client's name (`c=`): a transaction's provenance names it ("via Symfonium").
    public var client: String? { parameters["c"] }
    public var station: Station? { front.station }

    /// The user, for an endpoint that needs one (every endpoint but the open ones).
    public func requireUser() throws(SubsonicError) -> String {
        guard let user else { throw SubsonicError(.notAuthorized, "\(endpoint) needs a user.") }
        return user
    }

    /// The account of the user, from the authenticator's list; nil when it has none such.
    public func account() async -> SubsonicUser? {
        guard let user else { return nil }
        return await front.authenticator.users().first { $0.name == user }
    }
}
