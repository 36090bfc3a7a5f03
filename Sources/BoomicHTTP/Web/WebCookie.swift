import Hummingbird
import HTTPTypes

/// The session cookie: `boomic_session`, `HttpOnly` (the page's scripts never see it),
/// `SameSite=Strict` (no other site's page sends it), `Path` = the base path, and `Secure` only
/// when the request came through a proxy that says it is HTTPS (`X-Forwarded-Proto: https`
/// from a loopback peer): over plain HTTP a `Secure` cookie would never come back.
enum WebCookie {
    static let name = "boomic_session"

    /// The `Set-Cookie` value that starts `session`, kept by the browser as long as the session
    /// may live.
    static func start(_ session: WebSessions.Session, front: HTTPContext, origin: ForwardedOrigin) -> String {
        "\(name)=\(session.id); Path=\(path(front)); Max-Age=\(Int(front.sessions.lifetime)); HttpOnly; SameSite=Strict"
            + (origin.scheme == "https" ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that makes the browser forget the cookie (logout).
    static func end(front: HTTPContext, origin: ForwardedOrigin) -> String {
        "\(name)=; Path=\(path(front)); Max-Age=0; HttpOnly; SameSite=Strict" + (origin.scheme == "https" ? "; Secure" : "")
    }

    static func path(_ front: HTTPContext) -> String { front.basePath.isEmpty ? "/" : front.basePath }

    /// The session the request's cookie names, if it is live and its account still exists (the
    /// accounts are read again per request, as `/rest` reads them): a session of an account
    /// removed ends at its next request.
    static func session(of request: Request, front: HTTPContext) async -> WebSessions.Session? {
        for field in request.headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, trimmed(parts[0]) == name, let session = front.sessions.find(trimmed(parts[1])) else { continue }
                let user = session.user.lowercased()
                guard await front.authenticator.users().contains(where: { $0.name.lowercased() == user }) else {
                    front.sessions.end(session.id)
                    return nil
                }
                return session
            }
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> String {
        var t = text
        while t.first == " " || t.first == "\t" { t.removeFirst() }
        while t.last == " " || t.last == "\t" { t.removeLast() }
        return String(t)
    }
}
