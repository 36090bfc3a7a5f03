import Foundation
import Testing

/// The page's API as the page calls it, over the fixture's loopback port: logged in as anna
/// through the form, every change with the session's CSRF token.
struct WebClient {
    let front: FrontFixture
    let cookie: String
    let csrf: String

    init(_ front: FrontFixture) async throws {
        self.front = front
        cookie = try await WebSessionTests.login(front).cookie
        let me = try WebSessionTests.object(try await front.get("/api/session", headers: ["Cookie": cookie]))
        csrf = try #require(me["csrf"] as? String)
    }

    /// The answer's status and its JSON (nil for none).
    func call(_ method: String, _ path: String, json: String? = nil, token: Bool = true) async throws -> (status: Int, body: Any?) {
        var headers = ["Cookie": cookie]
        if token, method != "GET" { headers["X-CSRF-Token"] = csrf }
        if json != nil { headers["Content-Type"] = "application/json" }
        let answer = try await RawHTTP.send(front.port, method, "/api/" + path, headers: headers, body: json ?? "")
        let body = answer.body.isEmpty ? nil : try JSONSerialization.jsonObject(with: Data(answer.body.utf8))
        return (answer.status, body)
    }

    /// A GET's JSON object; requires 200.
    func get(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let (status, body) = try await call("GET", path)
        try #require(status == 200, "GET \(path): \(status) \(String(describing: body))", sourceLocation: sourceLocation)
        return try #require(body as? [String: Any], sourceLocation: sourceLocation)
    }
}
