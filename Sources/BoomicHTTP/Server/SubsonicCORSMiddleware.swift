import Hummingbird
import HTTPTypes

/// CORS on `/rest`, so that browser clients (Feishin's web build) on another origin can call
/// the API: every answer allows any origin (the API takes its credentials in parameters, never
/// from a cookie, so a page of another site gains nothing it could not send itself), and a
/// preflight `OPTIONS` is answered here, before authentication (browsers send it without
/// credentials).
struct SubsonicCORSMiddleware: RouterMiddleware {
    typealias Context = HTTPRequestContext

    static let allowedMethods = "GET, POST, HEAD, OPTIONS"
    static let allowedHeaders = "Content-Type, Authorization, Accept, Origin, Range"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            var headers = HTTPFields()
            headers[.accessControlAllowOrigin] = "*"
            headers[.accessControlAllowMethods] = Self.allowedMethods
            headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders] ?? Self.allowedHeaders
            headers[.accessControlMaxAge] = "86400"
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = "*"
        response.headers[.accessControlExposeHeaders] = "Content-Length, Content-Range, Accept-Ranges"
        return response
    }
}
