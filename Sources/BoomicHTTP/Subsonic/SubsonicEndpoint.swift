/// One endpoint of `/rest`: its name, whether it is open to calls without credentials, and its
/// handler (nil while Boomic does not answer it yet: error 70 "not yet").
public struct SubsonicEndpoint: Sendable {
    public typealias Handler = @Sendable (SubsonicCall) async throws -> SubsonicReply

    public let name: String
    /// Reachable without authentication: OpenSubsonic allows it for
    /// `getOpenSubsonicExtensions` only, and so does Boomic.
    public let isOpen: Bool
    public let handler: Handler?

    public init(_ name: String, open: Bool = false, _ handler: Handler?) {
        self.name = name
        self.isOpen = open
        self.handler = handler
    }

    /// An endpoint of the API that is not answered yet.
    public static func notYet(_ name: String) -> SubsonicEndpoint { SubsonicEndpoint(name, nil) }
}
