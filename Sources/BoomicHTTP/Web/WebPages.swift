import Foundation
import Hummingbird
import HTTPTypes

/// The web page's routes outside the API: the shell at `BASE/` (the page, for a session; else
/// a redirect to the login), the login page and its form, and the assets.
enum WebPages {
    /// Headers of every HTML page: scripts, styles and pictures come from this server only (no
    /// inline script), no other site may frame it, and no address leaks to another site.
    static let pageHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .cacheControl: "no-store",
        .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; media-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
        .init("X-Frame-Options")!: "DENY",
        .init("X-Content-Type-Options")!: "nosniff",
        .init("Referrer-Policy")!: "same-origin",
    ]

    static func add(to base: RouterGroup<HTTPRequestContext>, front: HTTPContext) {
        base.get { request, context in await shell(request, context, front) }
        base.get("login") { request, context in loginPage(request, context, front) }
        base.post("login") { request, context in try await login(request, context, front) }
        base.get("assets/{name}") { request, context in await asset(request, context, front) }
    }

    /// `BASE/`: the page for a session, else `303` to the login. `BASE` without its slash is
    /// sent to `BASE/`, so that the page's relative addresses (`assets/app.js`, `api/…`) resolve
    /// under the base.
    static func shell(_ request: Request, _ context: HTTPRequestContext, _ front: HTTPContext) async -> Response {
        if !request.uri.path.hasSuffix("/") { return redirect(front.basePath + "/") }
        guard await WebCookie.session(of: request, front: front) != nil, let page = WebAsset.all["index.html"] else {
            return redirect(front.basePath + "/login")
        }
        return Response(status: .ok, headers: pageHeaders, body: .init(byteBuffer: ByteBuffer(bytes: page.bytes)))
    }

    /// The login form, with the outcome of the last try (`?failed`, `?out`) and the address of
    /// the OpenSubsonic API for the user's phone.
    static func loginPage(_ request: Request, _ context: HTTPRequestContext, _ front: HTTPContext) -> Response {
        let query = SubsonicParameters(encoded: request.uri.query ?? "")
        let message = query.contains("failed") ? "Wrong user name or password."
            : query.contains("out") ? "Logged out." : query.contains("expired") ? "Your session ended: log in again." : ""
        let api = ForwardedOrigin(headers: request.headers, authority: request.head.authority, peer: context.peer)
            .url(front.basePath + "/rest")
        let html = (WebAsset.all["login.html"]?.text ?? "")
            .replacingOccurrences(of: "<!--message-->", with: escaped(message))
            .replacingOccurrences(of: "<!--api-->", with: escaped(api))
        return Response(status: .ok, headers: pageHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The form's POST: `user` and `password` against the library's accounts (those of `/rest`).
    /// A success starts a session and sends the page (`303` to `BASE/`); a failure waits the
    /// front's login delay, is logged with the user name and the client's address (never the
    /// password), and sends the form back with its message.
    static func login(_ request: Request, _ context: HTTPRequestContext, _ front: HTTPContext) async throws -> Response {
        let origin = ForwardedOrigin(headers: request.headers, authority: request.head.authority, peer: context.peer)
        var request = request
        let body = try await request.collectBody(upTo: 64 << 10)
        let form = SubsonicParameters(encoded: String(buffer: body))
        let user = form["user"] ?? ""
        let password = form["password"] ?? ""
        if !user.isEmpty, !password.isEmpty, case let .user(name) = await front.authenticator.authenticate(user: user, password: password) {
            let session = front.sessions.start(user: name)
            var response = redirect(front.basePath + "/")
            response.headers[values: .setCookie].append(WebCookie.start(session, front: front, origin: origin))
            return response
        }
        front.warn("failed login of user '\(SubsonicAuthMiddleware.loggable(user))' from \(origin.client) on the web page: \(SubsonicError.Code.wrongCredentials.message)")
        try? await Task.sleep(for: front.loginDelay)
        return redirect(front.basePath + "/login?failed")
    }

    /// `BASE/assets/NAME`: an embedded file with its type and tag; `304` when the browser's copy
    /// is current. Only the login page's assets are served without a session (401 otherwise).
    static func asset(_ request: Request, _ context: HTTPRequestContext, _ front: HTTPContext) async -> Response {
        guard let name = context.parameters.get("name"), let asset = WebAsset.all[name] else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "No such file.\n")))
        }
        var allowed = WebAsset.open.contains(name)
        if !allowed { allowed = await WebCookie.session(of: request, front: front) != nil }
        guard allowed else {
            return Response(status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "Log in first.\n")))
        }
        var headers: HTTPFields = [.eTag: asset.etag, .cacheControl: "no-cache", .init("X-Content-Type-Options")!: "nosniff"]
        if let tags = request.headers[.ifNoneMatch], tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }

    /// `303 See Other` to `path` (a path under the server, the base included).
    static func redirect(_ path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path, .cacheControl: "no-store"])
    }

    /// Text as HTML content: `&`, `<`, `>`, `"` and `'` escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
