import Hummingbird

/// The session's own calls: who is logged in (with the CSRF token the page sends on every
/// change), and logout.
enum SessionAPI {
    static let routes: [WebRoute] = [
        WebRoute(.get, "session", session),
        WebRoute(.post, "logout", logout),
    ]

    struct SessionInfo: Encodable, Sendable {
        var user: String
        var csrf: String
        var version: String
        /// Absolute URL of the OpenSubsonic API, for the user's phone.
        var api: String
    }

    /// `GET api/session`: the user, the CSRF token, Boomic's version, the OpenSubsonic URL.
    /// Another site's page cannot read it: the API sends no CORS header and the cookie is
    /// `SameSite=Strict`.
    static func session(_ call: WebCall) async throws -> WebReply {
        .json(SessionInfo(user: call.user, csrf: call.session.csrf, version: call.front.version,
                          api: call.origin.url(call.front.basePath + "/rest")))
    }

    /// `POST api/logout`: ends the session and clears the cookie.
    static func logout(_ call: WebCall) async throws -> WebReply {
        call.front.sessions.end(call.session.id)
        call.front.roomFeed.end(session: call.session.id)
        var response = Response(status: .noContent, headers: [.cacheControl: "no-store"])
        response.headers[values: .setCookie].append(WebCookie.end(front: call.front, origin: call.origin))
        return .http(response)
    }
}
