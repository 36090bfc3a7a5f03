import Hummingbird
import HTTPTypes

/// The web page's routes under the base path: its pages (`WebPages`) and its API, every route
/// of `WebAPI.all` at `BASE/api/PATH` behind `WebSessionMiddleware`; any other `BASE/api/…` is
/// 404 in JSON.
enum WebRoutes {
    static func add(to base: RouterGroup<HTTPRequestContext>, front: HTTPContext) {
        WebPages.add(to: base, front: front)
        let api = base.group("api").add(middleware: WebSessionMiddleware(front: front))
        for route in front.webRoutes {
            api.on(RouterPath(route.path), method: route.method) { request, context in
                try await dispatch(route, request, context, front)
            }
        }
        RoomEvents.add(to: api, front: front)
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            api.on("**", method: method) { request, _ in
                WebSessionMiddleware.render(.notFound("No API call \(request.method) \(request.uri.path)."))
            }
        }
    }

    static func dispatch(_ route: WebRoute, _ request: Request, _ context: HTTPRequestContext, _ front: HTTPContext) async throws -> Response {
        guard let session = context.web else { return WebSessionMiddleware.render(.noSession) }
        var request = request
        let body = request.method == .get || request.method == .head
            ? ByteBuffer() : try await request.collectBody(upTo: WebSessionMiddleware.bodyLimit)
        let call = WebCall(session: session, pathParts: context.parameters,
                           query: SubsonicParameters(encoded: request.uri.query ?? ""), body: body, head: request.head,
                           origin: ForwardedOrigin(headers: request.headers, authority: request.head.authority, peer: context.peer),
                           front: front)
        switch try await route.handler(call) {
        case let .json(value, status): return WebSessionMiddleware.json(value, status: status)
        case .empty: return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        case let .http(response): return response
        }
    }
}
