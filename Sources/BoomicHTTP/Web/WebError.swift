import HTTPTypes

/// A refusal of the page's API: the HTTP status and one line, answered as
/// `{"error": "one line"}`.
public struct WebError: Error, Sendable, Equatable {
    public let status: HTTPResponse.Status
    public let message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = SubsonicError.oneLine(message)
    }

    public static func notFound(_ message: String) -> WebError { WebError(.notFound, message) }
    public static func badRequest(_ message: String) -> WebError { WebError(.badRequest, message) }
    static let noSession = WebError(.unauthorized, "Not logged in: log in again.")
    static let csrf = WebError(.forbidden, "This change lacks the page's X-CSRF-Token: reload the page.")
}
