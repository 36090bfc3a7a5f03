import Hummingbird
import NIOCore

/// Hummingbird's per-request context for the front: the peer's address (for `ForwardedOrigin`)
/// and, on `/rest`, what the middlewares found (the call's parameters, format and user); on
/// the web page's API, its session.
public struct HTTPRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address; nil for a local socket or a test without a channel.
    public let peer: String?
    public var subsonic = SubsonicState()
    /// On the web page's API: the session the cookie names (`WebSessionMiddleware`).
    public var web: WebSessions.Session?

    /// What `/rest`'s middlewares found, for the ones after them and the handler.
    public struct SubsonicState: Sendable {
        public var endpoint = ""
        public var parameters = SubsonicParameters()
        public var format = SubsonicFormat.xml
        public var user: String?
    }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }
}
