import Hummingbird
import HTTPTypes

/// The front's routes under its base path: `/rest/{method}` (OpenSubsonic; GET, POST, HEAD,
/// and OPTIONS for CORS preflights) through CORS, the call's reading and authentication, then
/// the endpoint table; and the web page (`WebRoutes`): `/`, `/login`, `/assets/…`, `/api/…`.
enum HTTPRoutes {
    static func router(_ front: HTTPContext) -> Router<HTTPRequestContext> {
        let router = Router(context: HTTPRequestContext.self)
        let base = front.basePath.isEmpty ? router.group() : router.group(RouterPath(front.basePath))
        let rest = base.group("rest")
            .add(middleware: SubsonicCORSMiddleware())
            .add(middleware: SubsonicCallMiddleware(front: front))
            .add(middleware: SubsonicAuthMiddleware(front: front))
        let dispatch: @Sendable (Request, HTTPRequestContext) async throws -> Response = { request, context in
            try await Self.dispatch(request, context, front)
        }
        for method in [HTTPRequest.Method.get, .post, .head, .options] {
            rest.on("{method}", method: method, use: dispatch)
        }
        WebRoutes.add(to: base, front: front)
        return router
    }

    /// The endpoint the call names, from the table: unknown is error 70 with HTTP 404, known
    /// but not answered yet is error 70 with 200.
    static func dispatch(_ request: Request, _ context: HTTPRequestContext, _ front: HTTPContext) async throws -> Response {
        let state = context.subsonic
        guard let endpoint = front.endpoints[state.endpoint] else {
            return front.render(.failure(SubsonicError(.notFound, "Unknown endpoint: \(state.endpoint).")), as: state.format, status: .notFound)
        }
        guard let handler = endpoint.handler else {
            throw SubsonicError(.notFound, "\(state.endpoint) is not answered yet.")
        }
        let call = SubsonicCall(endpoint: state.endpoint, parameters: state.parameters, user: state.user,
                                origin: ForwardedOrigin(headers: request.headers, authority: request.head.authority, peer: context.peer),
                                head: request.head, front: front)
        switch try await handler(call) {
        case let .answer(body): return front.render(SubsonicResponse(body: body), as: state.format)
        case let .http(response): return response
        }
    }
}
