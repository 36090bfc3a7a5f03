import Hummingbird
import HTTPTypes

/// Reads a `/rest` call: the endpoint's name (a `.view` suffix dropped), the parameters from
/// the query string and a form body (OpenSubsonic's `formPost`), the format `f` asks for; and
/// answers a `SubsonicError` thrown after it in that format. Any other failure of a handler is
/// error 0 with its one-line message.
struct SubsonicCallMiddleware: RouterMiddleware {
    typealias Context = HTTPRequestContext

    /// A form body larger than this is refused (HTTP 413): parameters are short.
    static let formLimit = 1 << 20

    let front: HTTPContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        var context = context
        var name = context.parameters.get("method") ?? ""
        if name.hasSuffix(".view") { name.removeLast(5) }
        var parameters = SubsonicParameters(encoded: request.uri.query ?? "")
        if request.method == .post,
           request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            let body = try await request.collectBody(upTo: Self.formLimit)
            parameters.append(encoded: String(buffer: body))
        }
        context.subsonic.endpoint = name
        context.subsonic.parameters = parameters
        do {
            context.subsonic.format = try SubsonicFormat(parameters)
        } catch {
            return front.render(.failure(error), as: SubsonicFormat.fallback(parameters))
        }
        do {
            return try await next(request, context)
        } catch let error as SubsonicError {
            return front.render(.failure(error), as: context.subsonic.format)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            return front.render(.failure(SubsonicError(.generic, "\(error)")), as: context.subsonic.format)
        }
    }
}
