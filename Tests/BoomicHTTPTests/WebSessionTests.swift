@testable import BoomicHTTP
import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// The web page's gate over a real loopback port: the login form against the accounts, the
/// session cookie's attributes, what is reachable without a session (the login page and its
/// assets; pages redirect, the API answers 401), the CSRF token on every change, logout, an
/// asset's ETag and 304, and the API's errors as `{"error": …}` with their status.
@Suite(.serialized)
struct WebSessionTests {
    static let form = ["Content-Type": "application/x-www-form-urlencoded"]

    /// Logs in as anna through the form; the cookie's `name=value`.
    static func login(_ front: FrontFixture, headers: [String: String] = [:]) async throws -> (cookie: String, answer: RawHTTP.Answer) {
        let answer = try await RawHTTP.send(front.port, "POST", front.front.basePath + "/login", headers: form.merging(headers) { $1 },
                                            body: "user=anna&password=sesame")
        let setCookie = try #require(answer.headers["set-cookie"], "\(answer)")
        return (String(setCookie.prefix { $0 != ";" }), answer)
    }

    /// The API's JSON answer as an object.
    static func object(_ answer: RawHTTP.Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer)")
    }

    @Test func theFormLogsInWithACookieThatIsHttpOnlyAndStrict() async throws {
        let front = try await FrontFixture()
        let (cookie, answer) = try await Self.login(front)
        #expect(answer.status == 303 && answer.headers["location"] == "/", "\(answer)")
        let attributes = try #require(answer.headers["set-cookie"]).components(separatedBy: "; ")
        #expect(cookie.hasPrefix("boomic_session=") && cookie.count == "boomic_session=".count + 43, "\(cookie)")
        #expect(Set(attributes.dropFirst()) == ["Path=/", "Max-Age=2592000", "HttpOnly", "SameSite=Strict"], "\(attributes)")

        let me = try Self.object(try await front.get("/api/session", headers: ["Cookie": cookie]))
        #expect(me["user"] as? String == "anna" && (me["csrf"] as? String)?.count == 43, "\(me)")
        #expect(me["api"] as? String == "http://127.0.0.1:\(front.port)/rest")
        let page = try await front.get("/", headers: ["Cookie": "other=1; " + cookie])
        #expect(page.status == 200 && page.body.contains(#"<script type="module" src="assets/app.js">"#), "\(page)")
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true
                && page.headers["x-frame-options"] == "DENY", "\(page.headers)")
        await front.stop()
    }

    /// Behind a proxy that says HTTPS, the cookie is `Secure`; under a base path, its `Path` is
    /// the base and the page is at `BASE/`.
    @Test func theCookieFollowsTheProxyAndTheBase() async throws {
        let front = try await FrontFixture(basePath: "/music")
        let (cookie, answer) = try await Self.login(front, headers: ["X-Forwarded-Proto": "https"])
        let attributes = try #require(answer.headers["set-cookie"]).components(separatedBy: "; ")
        #expect(attributes.contains("Path=/music") && attributes.contains("Secure"), "\(attributes)")
        #expect(answer.headers["location"] == "/music/")
        let plain = try await RawHTTP.send(front.port, "POST", "/music/login", headers: Self.form, body: "user=ben&password=bens")
        #expect(plain.headers["set-cookie"]?.contains("Secure") == false, "no Secure over plain HTTP: \(plain)")
        let bare = try await front.get("/music", headers: ["Cookie": cookie])
        #expect(bare.status == 303 && bare.headers["location"] == "/music/", "\(bare)")
        #expect(try await front.get("/music/", headers: ["Cookie": cookie]).status == 200)
        #expect(try await front.get("/music/api/session", headers: ["Cookie": cookie]).status == 200)
        await front.stop()
    }

    @Test func aWrongPasswordIsRefusedLateAndLoggedWithoutIt() async throws {
        let front = try await FrontFixture()
        let start = ContinuousClock.now
        let answer = try await RawHTTP.send(front.port, "POST", "/login", headers: Self.form, body: "user=anna&password=hunter2")
        #expect(ContinuousClock.now - start >= .milliseconds(50), "the front's login delay")
        #expect(answer.status == 303 && answer.headers["location"] == "/login?failed" && answer.headers["set-cookie"] == nil, "\(answer)")
        #expect(front.warned == ["failed login of user 'anna' from 127.0.0.1 on the web page: Wrong username or password."], "\(front.warned)")
        #expect(!front.warned.joined().contains("hunter2"))
        let page = try await front.get("/login?failed")
        #expect(page.body.contains("Wrong user name or password."), "\(page)")
        let empty = try await RawHTTP.send(front.port, "POST", "/login", headers: Self.form, body: "user=anna")
        #expect(empty.headers["location"] == "/login?failed", "\(empty)")
        await front.stop()
    }

    /// Nothing but the login page and its assets without a session: the page redirects to the
    /// login, the API and the page's modules answer 401; a cookie of no session is none.
    @Test func withoutASessionOnlyTheLoginIsOpen() async throws {
        let front = try await FrontFixture()
        let page = try await front.get("/")
        #expect(page.status == 303 && page.headers["location"] == "/login", "\(page)")
        let login = try await front.get("/login")
        #expect(login.status == 200 && login.body.contains(#"<form method="post" action="login""#), "\(login)")
        for path in ["/api/session", "/api/nothing"] {
            let api = try await front.get(path, headers: ["Cookie": "boomic_session=made-up"])
            let error = try Self.object(api)["error"] as? String
            #expect(api.status == 401 && error == "Not logged in: log in again.", "\(api)")
        }
        let post = try await RawHTTP.send(front.port, "POST", "/api/logout", headers: ["X-CSRF-Token": "x"])
        #expect(post.status == 401, "\(post)")
        #expect(try await front.get("/assets/app.js").status == 401)
        #expect(try await front.get("/assets/style.css").status == 200)
        #expect(try await front.get("/assets/login.html").status == 200)
        #expect(try await front.get("/assets/nothing.js").status == 404)
        #expect(try await front.get("/assets/..%2Fapp.js").status == 404)
        await front.stop()
    }

    /// Every change needs the session's token in `X-CSRF-Token`: none or another is 403 and
    /// changes nothing; with it, logout ends the session and clears the cookie.
    @Test func aChangeWithoutTheCSRFTokenIsRefused() async throws {
        let front = try await FrontFixture()
        let (cookie, _) = try await Self.login(front)
        let csrf = try #require(try Self.object(try await front.get("/api/session", headers: ["Cookie": cookie]))["csrf"] as? String)
        let none = try await RawHTTP.send(front.port, "POST", "/api/logout", headers: ["Cookie": cookie])
        let refusal = try Self.object(none)["error"] as? String
        #expect(none.status == 403 && refusal?.contains("X-CSRF-Token") == true, "\(none)")
        let other = try await RawHTTP.send(front.port, "POST", "/api/logout", headers: ["Cookie": cookie, "X-CSRF-Token": String(csrf.reversed())])
        #expect(other.status == 403, "\(other)")
        #expect(try await front.get("/api/session", headers: ["Cookie": cookie]).status == 200, "the session lives on")

        let out = try await RawHTTP.send(front.port, "POST", "/api/logout", headers: ["Cookie": cookie, "X-CSRF-Token": csrf])
        #expect(out.status == 204 && out.headers["set-cookie"]?.hasPrefix("boomic_session=; Path=/; Max-Age=0") == true, "\(out)")
        #expect(try await front.get("/api/session", headers: ["Cookie": cookie]).status == 401)
        #expect(try await front.get("/", headers: ["Cookie": cookie]).status == 303)
        await front.stop()
    }

    /// A session whose account is gone (not among the authenticator's users) ends at its next
    /// request.
    @Test func aSessionOfAnAccountRemovedEnds() async throws {
        let front = try await FrontFixture()
        let ghost = front.front.sessions.start(user: "zoe")
        let cookie = "boomic_session=\(ghost.id)"
        #expect(try await front.get("/api/session", headers: ["Cookie": cookie]).status == 401)
        #expect(front.front.sessions.find(ghost.id) == nil)
        let (anna, _) = try await Self.login(front)
        #expect(try await front.get("/api/session", headers: ["Cookie": anna]).status == 200)
        await front.stop()
    }

    @Test func anAssetHasItsTypeAndTagAndAnswers304() async throws {
        let front = try await FrontFixture()
        let css = try await front.get("/assets/style.css")
        let tag = try #require(css.headers["etag"])
        #expect(css.headers["content-type"] == "text/css; charset=utf-8" && css.headers["cache-control"] == "no-cache", "\(css.headers)")
        #expect(css.body.contains("prefers-color-scheme: dark") && tag.count == 34, "\(tag)")
        let again = try await front.get("/assets/style.css", headers: ["If-None-Match": tag])
        #expect(again.status == 304 && again.body.isEmpty, "\(again)")
        let changed = try await front.get("/assets/style.css", headers: ["If-None-Match": "\"0\""])
        #expect(changed.status == 200)
        let (cookie, _) = try await Self.login(front)
        let js = try await front.get("/assets/app.js", headers: ["Cookie": cookie])
        #expect(js.status == 200 && js.headers["content-type"] == "text/javascript; charset=utf-8", "\(js.headers)")
        #expect(WebAsset.all.keys.contains("api.js") && WebAsset.all["icon.svg"]?.contentType == "image/svg+xml")
        await front.stop()
    }

    struct Named: Decodable, Encodable, Sendable { var name: String }
    struct Oops: Error {}

    /// The API's errors: an unknown call is 404, a body that is not the JSON expected 400, a
    /// `WebError` its own status, any other error 500, a body over 1 MiB 413; each as
    /// `{"error": "one line"}`.
    @Test func theAPIsErrorsAreOneLineOfJSONWithTheirStatus() async throws {
        let routes = WebAPI.all + [
            WebRoute(.post, "echo") { call in .json(try call.json(Named.self)) },
            WebRoute(.get, "things/{id}") { call in
                let id = try call.path("id")
                if id == "oops" { throw Oops() }
                throw WebError.notFound("No thing \(id).")
            },
        ]
        let front = try await FrontFixture(webRoutes: routes)
        let (cookie, _) = try await Self.login(front)
        let csrf = try #require(try Self.object(try await front.get("/api/session", headers: ["Cookie": cookie]))["csrf"] as? String)
        let headers = ["Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"]
        func error(_ answer: RawHTTP.Answer) -> String? { (try? Self.object(answer))?["error"] as? String }

        let echo = try await RawHTTP.send(front.port, "POST", "/api/echo", headers: headers, body: #"{"name":"a/b"}"#)
        #expect(echo.status == 200 && echo.body == #"{"name":"a/b"}"# && echo.headers["content-type"] == "application/json; charset=utf-8", "\(echo)")
        let missing = try await RawHTTP.send(front.port, "POST", "/api/echo", headers: headers, body: #"{"other":1}"#)
        #expect(missing.status == 400 && (error(missing)) == "The body is not the JSON expected: no name", "\(missing)")
        let broken = try await RawHTTP.send(front.port, "POST", "/api/echo", headers: headers, body: "{")
        #expect(broken.status == 400, "\(broken)")
        let empty = try await RawHTTP.send(front.port, "POST", "/api/echo", headers: headers)
        #expect(empty.status == 400 && (error(empty)) == "The request needs a JSON body.", "\(empty)")
        let huge = try await RawHTTP.send(front.port, "POST", "/api/echo", headers: headers,
                                          body: #"{"name":""# + String(repeating: Character("x"), count: 1 << 20) + #""}"#)
        #expect(huge.status == 413 && (error(huge)) != nil, "\(huge.status) \(huge.headers)")
        let thing = try await front.get("/api/things/7", headers: ["Cookie": cookie])
        #expect(thing.status == 404 && (error(thing)) == "No thing 7.", "\(thing)")
        let oops = try await front.get("/api/things/oops", headers: ["Cookie": cookie])
        #expect(oops.status == 500 && (error(oops)) != nil, "\(oops)")
        let unknown = try await front.get("/api/nothing/here", headers: ["Cookie": cookie])
        #expect(unknown.status == 404 && (error(unknown)) == "No API call GET /api/nothing/here.", "\(unknown)")
        await front.stop()
    }

    /// A change made through `WebCall.commit` is one transaction naming the user and the client
    /// "web", as `boomic history` shows it.
    @Test func aChangeNamesTheUserViaWeb() async throws {
        let routes = WebAPI.all + [
            WebRoute(.post, "retitle") { call in
                let title = try call.json(Named.self).name
                let made = try await call.commit(kind: .edit) { basis in
                    guard let song = basis.songs.values.first(where: { $0.title == "Song 0" }) else { return nil }
                    return ([.updateSong(song.id, [.title: FieldChange(old: .string("Song 0"), new: .string(title))])], "modify title=\(title)")
                }
                return .json(["seq": made?.seq ?? 0])
            },
        ]
        let front = try await FrontFixture(webRoutes: routes)
        let (cookie, _) = try await Self.login(front)
        let csrf = try #require(try Self.object(try await front.get("/api/session", headers: ["Cookie": cookie]))["csrf"] as? String)
        let answer = try await RawHTTP.send(front.port, "POST", "/api/retitle", headers: ["Cookie": cookie, "X-CSRF-Token": csrf],
                                            body: #"{"name":"Song Zero"}"#)
        let seq = try #require(try Self.object(answer)["seq"] as? Int, "\(answer)")
        let t = try front.session.entry(seq: seq).transaction
        #expect(t.provenance.user == "anna" && t.provenance.client == "web" && t.kind == .edit, "\(t.provenance)")
        #expect(t.provenance.byLine == " by anna via web")
        #expect(front.session.basis.songs.values.contains { $0.title == "Song Zero" })
        await front.stop()
    }

    /// A session ends `idle` after its last use or `lifetime` after its login, and at logout.
    @Test func sessionsExpire() {
        let clock = Clock()
        let sessions = WebSessions(idle: .seconds(100), lifetime: .seconds(250), now: { clock.time.withLock { $0 } })
        let a = sessions.start(user: "anna")
        #expect(a.id != a.csrf && sessions.find(a.id)?.user == "anna")
        clock.time.withLock { $0 += 99 }
        #expect(sessions.find(a.id) != nil, "used: the idle time starts again")
        clock.time.withLock { $0 += 99 }
        #expect(sessions.find(a.id) != nil)
        clock.time.withLock { $0 += 60 }
        #expect(sessions.find(a.id) == nil, "past its lifetime though used")
        let b = sessions.start(user: "ben")
        clock.time.withLock { $0 += 100 }
        #expect(sessions.find(b.id) == nil, "idle too long")
        let c = sessions.start(user: "carl")
        sessions.end(c.id)
        #expect(sessions.find(c.id) == nil && sessions.count == 0)
        #expect(WebSessions.same("abc", "abc") && !WebSessions.same("abc", "abd") && !WebSessions.same("abc", "ab"))
    }

    final class Clock: Sendable {
        let time = Mutex<Double>(1_000)
    }
}

import Synchronization
