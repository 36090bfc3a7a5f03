import Foundation
import Hummingbird
import HTTPTypes
import NIOCore

/// The gate of the page's API (`BASE/api/…`): a call needs a live session (its cookie), else
/// 401; a change (any method but GET and HEAD) also needs the session's CSRF token in
/// `X-CSRF-Token`, else 403. Errors after it are answered as `{"error": "one line"}` with
/// their status: a `WebError`'s, an HTTP error's (413 for a body too large), else 500.
struct WebSessionMiddleware: RouterMiddleware {
    typealias Context = HTTPRequestContext

    /// A change's body larger than this is refused (413): the page sends small documents.
    static let bodyLimit = 1 << 20

    let front: HTTPContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let session = await WebCookie.session(of: request, front: front) else { return Self.render(.noSession) }
        if request.method != .get, request.method != .head {
            guard let token = request.headers[Self.csrfHeader], WebSessions.same(token, session.csrf) else {
                return Self.render(.csrf)
            }
        }
        var context = context
        context.web = session
        do {
            return try await next(request, context)
        } catch let error as WebError {
            return Self.render(error)
        } catch is NIOTooManyBytesError {
            return Self.render(WebError(.contentTooLarge, "The body is over \(Self.bodyLimit >> 20) MiB."))
        } catch let error as HTTPError {
            return Self.render(WebError(error.status, error.body ?? error.status.reasonPhrase))
        } catch {
            front.warn("web API \(request.method) \(request.uri.path): \(error.localizedDescription)")
            return Self.render(WebError(.internalServerError, error.localizedDescription))
        }
    }

    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    /// The answer to a refusal: `{"error": "…"}` with its status.
    static func render(_ error: WebError) -> Response {
        json(["error": error.message], status: error.status)
    }

    /// A value as the API's JSON: sorted keys, `/` unescaped, never cached.
    static func json(_ value: any Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"The answer could not be written as JSON."}"#.utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
