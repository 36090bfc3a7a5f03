@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// The history page's API over a real loopback port: the timeline paged newest first with who
/// made each change and what it touched, a transaction's field-by-field diff, and revert,
/// rollback and undo as a preview that changes nothing and a commit (CSRF required) that is
/// one transaction "by anna via web", refused when the library moved since the preview; a
/// revert that a later change contradicts answers the conflict in one line.
@Suite(.serialized)
struct WebHistoryTests {
    /// Sets `title` of the fixture's song `index` as `caller` would: one edit transaction.
    @discardableResult
    static func retitle(_ front: FrontFixture, _ index: Int, _ title: String, caller: Caller? = nil) throws -> Int {
        let session = front.session
        let song = try #require(session.basis.songs.values.first { $0.path.hasSuffix("/\(index).flac") })
        let done = try session.commit(kind: .edit, message: "why not", caller: caller) { basis in
            let old = basis[song.id]?.title
            return ([.updateSong(song.id, [.title: FieldChange(old: old.map(FieldValue.string) ?? .null, new: .string(title))])],
                    "modify title=\(title) (1 song)" + (caller?.byLine ?? ""))
        }
        return try #require(done).seq
    }

    static func titles(_ front: FrontFixture) -> [String] {
        front.session.basis.songs.values.compactMap(\.title).sorted()
    }

    @Test func theTimelineIsPagedNewestFirstWithWhoAndWhat() async throws {
        let front = try await FrontFixture()
        try Self.retitle(front, 0, "Zero", caller: Caller(user: "anna", client: "Symfonium"))
        try Self.retitle(front, 1, "One")
        let web = try await WebClient(front)

        let first = try await web.get("history?limit=2")
        let items = try #require(first["items"] as? [[String: Any]])
        #expect(items.map { $0["seq"] as? Int } == [3, 2], "\(first)")
        #expect(first["head"] as? Int == 3 && first["next"] as? Int == 2, "\(first)")
        #expect(items[1]["user"] as? String == "anna" && items[1]["client"] as? String == "Symfonium", "\(items[1])")
        #expect(items[1]["label"] as? String == "modify title=Zero (1 song) by anna via Symfonium")
        #expect(items[1]["songs"] as? Int == 1 && items[1]["fields"] as? Int == 1 && items[1]["message"] as? String == "why not")
        #expect(items[0]["user"] == nil && items[0]["kind"] as? String == "edit", "\(items[0])")

        let second = try await web.get("history?limit=2&before=2")
        let older = try #require(second["items"] as? [[String: Any]])
        #expect(older.map { $0["seq"] as? Int } == [1], "\(second)")
        #expect(older[0]["kind"] as? String == "import" && older[0]["songs"] as? Int == 2 && older[0]["fields"] as? Int == 0)
        #expect(second["next"] == nil, "the first transaction ends the timeline: \(second)")
        #expect(try await web.call("GET", "history?before=x").status == 400)
        await front.stop()
    }

    @Test func aTransactionOpensAsItsFieldByFieldDiff() async throws {
        let front = try await FrontFixture()
        let seq = try Self.retitle(front, 0, "Zero")
        let web = try await WebClient(front)
        let t = try await web.get("history/\(seq)")
        #expect(t["label"] as? String == "modify title=Zero (1 song)" && t["message"] as? String == "why not", "\(t)")
        let changes = try #require(t["changes"] as? [[String: Any]])
        #expect(changes.count == 1 && changes[0]["op"] as? String == "update" && changes[0]["entity"] as? String == "Zero"
                && changes[0]["field"] as? String == "title" && changes[0]["before"] as? String == "Song 0"
                && changes[0]["after"] as? String == "Zero", "\(changes)")
        #expect(try await web.call("GET", "history/99").status == 404)
        #expect(try await web.call("GET", "history/0").status == 404)
        await front.stop()
    }

    /// Take back this change: the preview shows the change and changes nothing; the commit
    /// needs the CSRF token, makes one transaction by anna via web, and undo takes it back.
    @Test func aRevertIsPreviewedThenCommittedThenUndone() async throws {
        let front = try await FrontFixture()
        let seq = try Self.retitle(front, 0, "Zero")
        let web = try await WebClient(front)

        let preview = try await web.get("history/\(seq)/revert")
        #expect(preview["summary"] as? String == "1 song" && preview["head"] as? Int == 2 && preview["committed"] == nil, "\(preview)")
        let row = try #require((preview["changes"] as? [[String: Any]])?.first)
        #expect(row["before"] as? String == "Zero" && row["after"] as? String == "Song 0", "\(row)")
        #expect(front.session.head == 2 && Self.titles(front) == ["Song 1", "Zero"], "a preview changes nothing")

        let refused = try await web.call("POST", "history/\(seq)/revert", json: #"{"head":2}"#, token: false)
        #expect(refused.status == 403 && front.session.head == 2, "a change needs the CSRF token: \(refused)")

        let done = try await web.call("POST", "history/\(seq)/revert", json: #"{"head":2}"#)
        #expect(done.status == 200 && (done.body as? [String: Any])?["committed"] as? Int == 3, "\(done)")
        #expect(Self.titles(front) == ["Song 0", "Song 1"])
        let t = try front.session.entry(seq: 3).transaction
        #expect(t.kind == .revert && t.provenance.user == "anna" && t.provenance.client == "web", "\(t.provenance)")
        #expect(t.label == "revert 2: modify title=Zero (1 song) by anna via web", "\(t.label)")

        let undoPreview = try await web.get("undo")
        #expect(undoPreview["seq"] as? Int == 3 && undoPreview["summary"] as? String == "1 song", "\(undoPreview)")
        let undone = try await web.call("POST", "undo", json: "{}")
        #expect(undone.status == 200, "\(undone)")
        #expect(Self.titles(front) == ["Song 1", "Zero"], "undo takes the revert back")
        #expect(try front.session.entry(seq: 4).transaction.kind == .undo)
        await front.stop()
    }

    /// A revert whose field a later change set again: the preview names the conflict, and the
    /// commit is refused with that one line (as `boomic revert` leaves it alone).
    @Test func aContradictedRevertAnswersTheConflictInOneLine() async throws {
        let front = try await FrontFixture()
        let seq = try Self.retitle(front, 0, "Zero")
        try Self.retitle(front, 0, "Nought")
        let web = try await WebClient(front)
        let preview = try await web.get("history/\(seq)/revert")
        #expect(preview["conflicts"] as? [String] == ["conflict: Nought: title is now Nought, not Zero; left alone"], "\(preview)")
        #expect((preview["nothing"] as? String)?.hasPrefix("Nothing to revert: conflict: Nought: title is now Nought") == true, "\(preview)")
        let done = try await web.call("POST", "history/\(seq)/revert", json: "{}")
        let message = try #require((done.body as? [String: Any])?["error"] as? String)
        #expect(done.status == 409 && !message.contains("\n") && message.contains("title is now Nought, not Zero"), "\(done)")
        #expect(front.session.head == 3)
        await front.stop()
    }

    /// Go back to here: the preview lists what returns; a commit made on an older preview is
    /// refused; the commit makes the library what it was.
    @Test func aRollbackIsPreviewedAndRefusedWhenTheLibraryMoved() async throws {
        let front = try await FrontFixture()
        try Self.retitle(front, 0, "Zero")
        try Self.retitle(front, 1, "One")
        let web = try await WebClient(front)
        let preview = try await web.get("history/1/rollback")
        #expect(preview["summary"] as? String == "2 songs" && (preview["changes"] as? [Any])?.count == 2, "\(preview)")
        try Self.retitle(front, 1, "Uno")
        let stale = try await web.call("POST", "history/1/rollback", json: #"{"head":3}"#)
        #expect(stale.status == 409 && front.session.head == 4, "\(stale)")
        let done = try await web.call("POST", "history/1/rollback", json: #"{"head":4}"#)
        #expect(done.status == 200 && (done.body as? [String: Any])?["committed"] as? Int == 5, "\(done)")
        #expect(Self.titles(front) == ["Song 0", "Song 1"])
        let t = try front.session.entry(seq: 5).transaction
        #expect(t.kind == .rollback && t.label == "rollback to 1 (2 songs) by anna via web", "\(t.label)")
        let again = try await web.call("POST", "history/1/rollback", json: "{}")
        #expect(again.status == 409, "nothing left to roll back: \(again)")
        await front.stop()
    }

    /// Every way back and every taglist change is refused without the session's CSRF token,
    /// before anything is read or changed.
    @Test func everyChangeNeedsTheCSRFToken() async throws {
        let front = try await FrontFixture()
        try Self.retitle(front, 0, "Zero")
        let web = try await WebClient(front)
        let created = try #require(try await web.call("POST", "taglists", json: #"{"name":"t","clauses":[]}"#).body as? [String: Any])
        let id = try #require(created["id"] as? String)
        for (method, path) in [("POST", "history/2/revert"), ("POST", "history/1/rollback"), ("POST", "undo"),
                               ("POST", "taglists"), ("PUT", "taglists/\(id)"), ("DELETE", "taglists/\(id)")] {
            let refused = try await web.call(method, path, json: #"{"name":"u","clauses":["+#x"]}"#, token: false)
            #expect(refused.status == 403, "\(method) \(path): \(refused)")
        }
        #expect(front.session.head == 3 && Self.titles(front) == ["Song 1", "Zero"])
        await front.stop()
    }

    @Test func nothingToUndoIsOneLine() async throws {
        let front = try await FrontFixture()
        let web = try await WebClient(front)
        _ = try await web.call("POST", "undo", json: "{}")
        let second = try await web.call("POST", "undo", json: "{}")
        #expect(second.status == 409 && (second.body as? [String: Any])?["error"] as? String == "Nothing to undo.", "\(second)")
        await front.stop()
    }
}
