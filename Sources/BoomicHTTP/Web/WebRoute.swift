import HTTPTypes

/// One route of the page's API (`BASE/api/PATH`): its method, its path under `api/` (with
/// `{name}` parts, read by `WebCall.path(_:)`) and its handler.
///
/// Every route needs a session; every method but GET and HEAD also needs the session's CSRF
/// token (`WebSessionMiddleware`). A feature adds its routes as a static list in a file of its
/// own and one line in `WebAPI.all`.
public struct WebRoute: Sendable {
    public typealias Handler = @Sendable (WebCall) async throws -> WebReply

    public let method: HTTPRequest.Method
    public let path: String
    public let handler: Handler

    public init(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.handler = handler
    }
}
