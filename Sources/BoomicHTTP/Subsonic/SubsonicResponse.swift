/// A whole Subsonic answer: the status, the header every answer carries and the payload.
public struct SubsonicResponse: Sendable, Equatable {
    public enum Status: String, Sendable { case ok, failed }

    /// The API version answered: Subsonic 1.16.1, the last, which OpenSubsonic builds on.
    public static let apiVersion = "1.16.1"
    /// The server's name in OpenSubsonic's `type`.
    public static let serverType = "boomic"

    public var status: Status
    /// The members after the header: `musicFolders`, `error`, ….
    public var body: SubsonicElement

    public init(status: Status = .ok, body: SubsonicElement = SubsonicElement()) {
        self.status = status
        self.body = body
    }

    public static func failure(_ error: SubsonicError) -> SubsonicResponse {
        var body = SubsonicElement()
        body.set("error", element: SubsonicElement(["code": .int(error.code.rawValue), "message": .string(error.message)]))
        return SubsonicResponse(status: .failed, body: body)
    }

    /// The `subsonic-response` element: the header (status, version, and OpenSubsonic's type,
    /// serverVersion and openSubsonic), then the body.
    public func root(serverVersion: String) -> SubsonicElement {
        var root = SubsonicElement([
            "status": .string(status.rawValue), "version": .string(Self.apiVersion), "type": .string(Self.serverType),
            "serverVersion": .string(serverVersion), "openSubsonic": true,
        ])
        for (name, member) in body.members { root.set(name, member) }
        root.text = body.text
        return root
    }
}
