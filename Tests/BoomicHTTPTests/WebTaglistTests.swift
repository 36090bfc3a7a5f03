@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// The taglists page's API: the list with counts, the live count of clauses being typed with
/// the songs gained and lost against the saved taglist, the parser's one line for a bad
/// clause, and create, save and delete as transactions by anna via web (CSRF required).
@Suite(.serialized)
struct WebTaglistTests {
    static func query(_ clauses: [String], id: String? = nil) -> String {
        "taglists/count?" + (clauses.map { "clause=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! } + (id.map { ["id=" + $0] } ?? []))
            .joined(separator: "&")
    }

    @Test func aRuleIsCountedAsTypedAndSavedAsOneTransaction() async throws {
        let front = try await FrontFixture()
        let web = try await WebClient(front)
        #expect(try await web.call("POST", "taglists", json: #"{"name":"zero","clauses":["+@title:0"]}"#, token: false).status == 403)
        let created = try await web.call("POST", "taglists", json: #"{"name":"zero","clauses":["+@title:0"]}"#)
        let made = try #require(created.body as? [String: Any], "\(created)")
        #expect(created.status == 201 && made["songs"] as? Int == 1 && made["committed"] as? Int == 2, "\(created)")
        let id = try #require(made["id"] as? String)

        let list = try #require(try await web.get("taglists")["taglists"] as? [[String: Any]])
        #expect(list.count == 1 && list[0]["name"] as? String == "zero" && list[0]["clauses"] as? [String] == ["+@title:0"]
                && list[0]["songs"] as? Int == 1, "\(list)")

        let all = try await web.get(Self.query(["+@title:song"], id: id))
        #expect(all["songs"] as? Int == 2, "\(all)")
        let moved = try await web.get(Self.query(["+@title(1)"], id: id))
        #expect(moved["songs"] as? Int == 1 && moved["clauses"] as? [String] == ["+@title:1"], "\(moved)")
        #expect((moved["gained"] as? [String: Any])?["songs"] as? [String] == ["Song 1"], "\(moved)")
        #expect((moved["lost"] as? [String: Any])?["songs"] as? [String] == ["Song 0"], "\(moved)")
        #expect(front.session.head == 2, "counting changes nothing")

        let saved = try await web.call("PUT", "taglists/\(id)", json: #"{"clauses":["+@title:1"]}"#)
        #expect(saved.status == 200 && (saved.body as? [String: Any])?["committed"] as? Int == 3, "\(saved)")
        let t = try front.session.entry(seq: 3).transaction
        #expect(t.kind == .taglist && t.label == "taglist edit zero by anna via web" && t.provenance.client == "web", "\(t.label)")
        #expect(front.session.basis.taglist(named: "zero")?.1.arguments == ["+@title:1"])
        let same = try await web.call("PUT", "taglists/\(id)", json: #"{"clauses":["+@title:1"]}"#)
        #expect((same.body as? [String: Any])?["committed"] == nil, "nothing to save: \(same)")

        let gone = try await web.call("DELETE", "taglists/\(id)")
        #expect(gone.status == 200 && front.session.basis.taglists.isEmpty, "\(gone)")
        await front.stop()
    }

    @Test func aBadRuleAnswersTheParsersLine() async throws {
        let front = try await FrontFixture()
        let web = try await WebClient(front)
        let bad = try await web.call("GET", Self.query(["+@year:19x0"]))
        let message = try #require((bad.body as? [String: Any])?["error"] as? String, "\(bad)")
        #expect(bad.status == 400 && message == "bad taglist clause '+@year:19x0' at offset 7: '19x0' is not a number; write e.g. 1969, <2000 or 1990..1999", "\(message)")
        let unsigned = try await web.call("GET", Self.query(["#jazz"]))
        #expect(unsigned.status == 400 && ((unsigned.body as? [String: Any])?["error"] as? String)?.hasPrefix("bad taglist clause '#jazz' at offset 0") == true, "\(unsigned)")
        let created = try await web.call("POST", "taglists", json: #"{"name":"x","clauses":["+jazz"]}"#)
        #expect(created.status == 400 && front.session.head == 1, "\(created)")
        let taken = try await web.call("POST", "taglists", json: #"{"name":"x","clauses":[]}"#)
        #expect(taken.status == 201, "\(taken)")
        let twice = try await web.call("POST", "taglists", json: #"{"name":"X","clauses":[]}"#)
        #expect(twice.status == 409, "a name taken (folded) is refused: \(twice)")
        #expect(try await web.call("GET", Self.query([], id: "nope")).status == 404)
        await front.stop()
    }
}
