import BoomicCore
import BoomicLibrary
import Foundation
import Hummingbird

/// The history page's calls: the timeline, one transaction's diff, and the three ways back —
/// `revert` (take back this change), `rollback` (go back to here) and `undo` (the last
/// change) — each as a preview (GET: what `--dry-run` shows, nothing changes) and a commit
/// (POST: one transaction, "by USER via web", that the page and `boomic undo` take back).
///
/// The plans are the library's (`RevertGeneration`, `RollbackFlow`, `UndoStack`), as the
/// CLI's commands use them. A commit may send the `head` its preview was made on: when the
/// library moved since, it is refused (409), so what is committed is what was shown.
enum HistoryAPI {
    static let routes: [WebRoute] = [
        WebRoute(.get, "history", timeline),
        WebRoute(.get, "history/{seq}", transaction),
        WebRoute(.get, "history/{seq}/revert", { try await revert($0, commit: false) }),
        WebRoute(.post, "history/{seq}/revert", { try await revert($0, commit: true) }),
        WebRoute(.get, "history/{seq}/rollback", { try await rollback($0, commit: false) }),
        WebRoute(.post, "history/{seq}/rollback", { try await rollback($0, commit: true) }),
        WebRoute(.get, "undo", { try await undo($0, commit: false) }),
        WebRoute(.post, "undo", { try await undo($0, commit: true) }),
    ]

    /// The timeline's default page and the most one call gives.
    static let pageSize = 50
    static let maxPage = 200

    /// `GET api/history?before=SEQ&limit=N&plays=1`: transactions before SEQ (the newest when
    /// absent), newest first; plays only with `plays`.
    static func timeline(_ call: WebCall) async throws -> WebReply {
        let before = try number(call.query["before"], "before")
        let limit = min(maxPage, max(1, try number(call.query["limit"], "limit") ?? pageSize))
        let plays = call.query.bool("plays") ?? false
        return .json(try HistoryTimeline.page(call.library, before: before, limit: limit, plays: plays))
    }

    struct Detail: Encodable, Sendable {
        var seq: Int
        var id: String
        var time: Double
        var kind: String
        var label: String
        var command: String?
        var message: String?
        var version: String?
        var user: String?
        var client: String?
        var changes: [ChangeRows.Row]
        /// Assertions left out of `changes` (a page shows the first 500).
        var more: Int
    }

    /// `GET api/history/SEQ`: the transaction with its field-by-field diff.
    static func transaction(_ call: WebCall) async throws -> WebReply {
        let lib = call.library
        let seq = try seq(call, lib, allowingZero: false)
        let entry = try lib.entry(seq: seq)
        let t = entry.transaction
        let (rows, more) = ChangeRows.rows(t.assertions, in: lib.basis)
        return .json(Detail(seq: seq, id: t.id.uuidString.lowercased(), time: t.timestamp, kind: t.kind.rawValue, label: t.label,
                            command: t.provenance.command, message: t.provenance.message, version: t.provenance.version,
                            user: t.provenance.user, client: t.provenance.client, changes: rows, more: more))
    }

    /// What a way back would do (GET) or did (POST).
    struct Preview: Encodable, Sendable {
        var action: String
        /// The transaction reverted, the state rolled back to, or the step undone.
        var seq: Int
        /// The library's last transaction the preview was made on; send it back to commit.
        var head: Int
        var label: String
        /// `3 songs and 1 taglist`: what would change.
        var summary: String
        var changes: [ChangeRows.Row]
        var more: Int
        /// One line each: a field a later change set again, left alone (as `boomic revert` says).
        var conflicts: [String]
        /// Set when nothing would change, with why.
        var nothing: String?
        /// After a commit: the new transaction.
        var committed: Int?
    }

    /// `revert`: takes back one transaction, keeping every later change; play fields stay.
    static func revert(_ call: WebCall, commit: Bool) async throws -> WebReply {
        let lib = call.library
        try lib.refresh()
        let seq = try seq(call, lib, allowingZero: false)
        try checkHead(call, lib, commit: commit)
        let target = try lib.entry(seq: seq).transaction
        let plan = RevertGeneration.revert(target, on: lib.basis, force: false, keepingPlays: true)
        let conflicts = plan.conflicts.map { conflictLine($0, in: lib.basis, or: target) }
        var nothing: String?
        if plan.assertions.isEmpty {
            nothing = target.kind == .play ? "Nothing to revert: a play changes only play fields."
                : conflicts.first.map { "Nothing to revert: \($0)" + (conflicts.count > 1 ? " (and \(conflicts.count - 1) more)" : "") }
                ?? "Nothing to revert."
        }
        let label = "revert \(seq): \(target.label)"
        var preview = self.preview("revert", seq, lib, label: label, plan.assertions, conflicts: conflicts, nothing: nothing)
        guard commit else { return .json(preview) }
        if let nothing { throw WebError(.conflict, nothing) }
        let caller = call.caller
        let done = try await run(call) {
            try EditFlow(lib: lib, kind: .revert, label: label) { basis in
                RevertGeneration.revert(target, on: basis, force: false, keepingPlays: true).assertions
            }.commit(message: nil, caller: caller)
        }
        guard let done else { throw WebError(.conflict, "Nothing to revert: a later change took it back already.") }
        preview.committed = done.seq
        preview.label = done.transaction.label
        return .json(preview)
    }

    /// `rollback`: makes the library what it was after transaction SEQ (0: empty); play
    /// fields stay.
    static func rollback(_ call: WebCall, commit: Bool) async throws -> WebReply {
        let lib = call.library
        try lib.refresh()
        let seq = try seq(call, lib, allowingZero: true)
        try checkHead(call, lib, commit: commit)
        let flow = try RollbackFlow(lib: lib, targetSeq: seq, kind: .rollback, label: "rollback to \(seq)")
        let nothing = flow.changesNothing ? "The library is already as it was at \(seq); nothing to do." : nil
        var preview = self.preview("rollback", seq, lib, label: flow.label, flow.preview, conflicts: [], nothing: nothing)
        guard commit else { return .json(preview) }
        if let nothing { throw WebError(.conflict, nothing) }
        let caller = call.caller
        guard let done = try await run(call, { try flow.commit(message: nil, caller: caller) }) else {
            throw WebError(.conflict, "The library is already as it was at \(seq); nothing to do.")
        }
        preview.committed = done.seq
        preview.label = done.transaction.label
        return .json(preview)
    }

    /// `undo`: takes back the last change (as `boomic undo`: a step of the undo stack, which
    /// `boomic redo` brings back).
    static func undo(_ call: WebCall, commit: Bool) async throws -> WebReply {
        let lib = call.library
        try lib.refresh()
        try checkHead(call, lib, commit: commit)
        let stack = try lib.undoStack()
        guard let plan = stack.undoPlan(count: 1) else { throw WebError(.conflict, "Nothing to undo.") }
        let steps = plan.steps.map(\.seq)
        let what = steps.map(String.init).joined(separator: ", ")
        // A step that changed play fields is taken back whole or not at all (`boomic undo`
        // asks for --plays): the page never takes back play counts.
        for step in steps {
            let assertions = try lib.entry(seq: step).transaction.assertions
            if EditGeneration.keepingPlays(assertions) != assertions {
                throw WebError(.conflict, "Undo \(step) would leave the play counts it changed: run 'boomic undo --plays'.")
            }
        }
        let flow = try RollbackFlow(lib: lib, targetSeq: plan.targetSeq, kind: .undo, label: "undo \(what)",
                                    undoes: plan.steps.map(\.id),
                                    replan: { lib in try lib.undoStack().undoPlan(count: 1).map { ($0.steps.map(\.id), $0.targetSeq) } },
                                    plannedThrough: stack.readThrough)
        let label = "undo \(what): " + (try lib.transactor.summaries(from: steps[0], through: steps[0]).first?.label ?? "")
        var preview = self.preview("undo", steps[0], lib, label: label, flow.preview, conflicts: [], nothing: nil)
        guard commit else { return .json(preview) }
        let caller = call.caller
        guard let done = try await run(call, { try flow.commit(message: nil, caller: caller) }) else {
            throw WebError(.conflict, "Nothing to undo.")
        }
        preview.committed = done.seq
        preview.label = done.transaction.label
        return .json(preview)
    }

    // MARK: Parts

    static func preview(_ action: String, _ seq: Int, _ lib: LibrarySession, label: String, _ change: [Assertion],
                        conflicts: [String], nothing: String?) -> Preview {
        let (rows, more) = ChangeRows.rows(change, in: lib.basis)
        return Preview(action: action, seq: seq, head: lib.head, label: label, summary: RollbackFlow.count(change),
                       changes: rows, more: more, conflicts: conflicts, nothing: nothing, committed: nil)
    }

    /// Runs a commit on the front's queue; a refusal of the library (another process moved the
    /// undo stack, a read-only library) is a 409 with its line.
    static func run<T: Sendable>(_ call: WebCall, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await call.commit(body)
        } catch let error as LibraryError {
            throw WebError(.conflict, error.message)
        }
    }

    /// The body's `{"head": N}`, when sent, must be the library's head: the preview was made
    /// there.
    static func checkHead(_ call: WebCall, _ lib: LibrarySession, commit: Bool) throws {
        guard commit, call.body.readableBytes > 0 else { return }
        struct Seen: Decodable { var head: Int? }
        if let seen = try call.json(Seen.self).head, seen != lib.head {
            throw WebError(.conflict, "The library changed since this preview (it is at \(lib.head), not \(seen)): look at the preview again.")
        }
    }

    /// The `{seq}` of the path: a transaction of the log (or 0, the empty library, when
    /// `allowingZero`).
    static func seq(_ call: WebCall, _ lib: LibrarySession, allowingZero: Bool) throws -> Int {
        let text = try call.path("seq")
        let head = try lib.transactor.logHead()
        guard let seq = Int(text), seq >= (allowingZero ? 0 : 1), seq <= head else {
            throw WebError.notFound("No transaction \(text.prefix(40)): the log holds 1 to \(head).")
        }
        return seq
    }

    static func number(_ text: String?, _ name: String) throws(WebError) -> Int? {
        guard let text else { return nil }
        guard let n = Int(text), n >= 0 else { throw WebError.badRequest("\(name) is not a number: \(text.prefix(40))") }
        return n
    }

    /// A conflict as `boomic revert` words it: `conflict: Nico - Chelsea Girl - These Days:
    /// title is now "X", not "Y"; left alone`.
    static func conflictLine(_ c: RevertGeneration.Conflict, in basis: DataBasis, or t: Transaction) -> String {
        let name: String
        switch c.entity {
        case .song(let id): name = basis[id].map(ChangeRows.name(of:)) ?? id.description
        case .taglist(let id): name = "taglist " + (basis.taglists[id]?.name ?? listName(c.entity, t) ?? id.description)
        case .playlist(let id): name = "playlist " + (basis.playlists[id]?.name ?? listName(c.entity, t) ?? id.description)
        case .eqProfile(let id): name = "EQ profile " + (basis.eqProfiles[id]?.name ?? listName(c.entity, t) ?? id.description)
        case .annotation(let key): name = key.description
        }
        let what = c.field.map { "\($0.name) is now \(ChangeRows.shown(c.current, $0) ?? "∅"), not \(ChangeRows.shown(c.expected, $0) ?? "∅")" }
            ?? (!c.isOverridable ? "\(c.current)"
                : c.song == nil ? "\(c.current), so reverting would undo that later change" : "the song \(c.current) (it was \(c.expected))")
        return "conflict: \(name): \(what); left alone"
    }

    static func listName(_ entity: EntityKey, _ t: Transaction) -> String? {
        for a in t.assertions where a.entity == entity {
            switch a {
            case .taglist(_, let c): return (c.new ?? c.old)?.name
            case .playlist(_, let c): return (c.new ?? c.old)?.name
            case .eqProfile(_, let c): return (c.new ?? c.old)?.name
            default: continue
            }
        }
        return nil
    }
}
