import BoomicCore
import BoomicLibrary
import Dispatch
import Foundation
import Hummingbird

/// The taglists page's calls: the library's taglists with their clauses and counts, the live
/// count of clauses being typed (with the songs gained and lost against the saved ones), and
/// create, save and delete, each one transaction "by USER via web" that `boomic undo` takes
/// back (as `boomic taglist add|edit|rm`).
enum TaglistsAPI {
    static let routes: [WebRoute] = [
        WebRoute(.get, "taglists", list),
        WebRoute(.get, "taglists/count", count),
        WebRoute(.post, "taglists", create),
        WebRoute(.put, "taglists/{id}", save),
        WebRoute(.delete, "taglists/{id}", delete),
    ]

    /// Songs named in a count's gained and lost lists; the counts are whole.
    static let namedSongs = 20

    struct Item: Encodable, Sendable {
        var id: String
        var name: String
        var clauses: [String]
        var songs: Int
    }

    /// `GET api/taglists`: every taglist by name, with its clauses and how many songs it holds
    /// (`boomic taglist ls --json`).
    static func list(_ call: WebCall) async throws -> WebReply {
        let lib = call.library
        try lib.refresh()
        let basis = lib.basis
        let items = await offLoop {
            basis.taglistsByName.map { id, t in
                Item(id: id.description, name: t.name, clauses: t.arguments, songs: basis.songCount(in: t, timeZone: .current))
            }
        }
        return .json(["taglists": items])
    }

    struct Moved: Encodable, Sendable {
        var count: Int
        /// The first `namedSongs`, in browsing order.
        var songs: [String]
    }

    struct Count: Encodable, Sendable {
        var songs: Int
        /// Against the saved taglist `id`; empty without one.
        var gained: Moved
        var lost: Moved
        /// The clauses as they would be saved (canonical form).
        var clauses: [String]
    }

    /// `GET api/taglists/count?clause=…&clause=…&id=ID`: how many songs the clauses hold, and
    /// which songs they gain and lose against the saved taglist ID. A clause that does not
    /// read answers 400 with the parser's line. Evaluated on the library's snapshot, off the
    /// server's event loops.
    static func count(_ call: WebCall) async throws -> WebReply {
        let lib = call.library
        try lib.refresh()
        let basis = lib.basis
        let clauses = call.query.all("clause")
        let draft = try parse(clauses, in: basis)
        let saved: Taglist? = try call.query["id"].map { try find($0, in: basis).1 }
        return .json(await offLoop { count(draft, against: saved, in: basis) })
    }

    static func count(_ draft: Taglist, against saved: Taglist?, in basis: DataBasis) -> Count {
        let now = TaglistMatcher(draft, timeZone: .current)
        let was = saved.map { TaglistMatcher($0, timeZone: .current) }
        var songs = 0
        var gained: [Song] = [], lost: [Song] = []
        for song in basis.songs.values {
            let inNow = now.matches(song)
            if inNow { songs += 1 }
            guard let was else { continue }
            let inWas = was.matches(song)
            if inNow, !inWas { gained.append(song) } else if inWas, !inNow { lost.append(song) }
        }
        let order = SongOrder([])
        func moved(_ list: [Song]) -> Moved {
            Moved(count: list.count, songs: order.sorted(list).prefix(namedSongs).map(ChangeRows.name(of:)))
        }
        return Count(songs: songs, gained: moved(gained), lost: moved(lost), clauses: draft.arguments)
    }

    struct Draft: Decodable {
        var name: String?
        var clauses: [String]?
    }

    struct Saved: Encodable, Sendable {
        var id: String
        var name: String
        var clauses: [String]
        var songs: Int
        /// The transaction; nil when the taglist already read so.
        var committed: Int?
        var label: String?
    }

    /// `POST api/taglists {"name", "clauses"}`: a new taglist (`boomic taglist add`).
    static func create(_ call: WebCall) async throws -> WebReply {
        let draft = try call.json(Draft.self)
        guard let name = draft.name else { throw WebError.badRequest("A new taglist needs a name.") }
        let lib = call.library
        try lib.refresh()
        let taglist = try parse(draft.clauses ?? [], name: name, in: lib.basis)
        let caller = call.caller
        let id = ListID(UUID())
        let done = try await run(call) {
            try lib.commit(kind: .taglist, message: nil, caller: caller) { basis in
                (try TaglistGeneration.add(taglist, id: id, on: basis), "taglist add \(taglist.name)" + caller.byLine)
            }
        }
        return .json(try saved(id, lib, done), status: .created)
    }

    /// `PUT api/taglists/ID {"clauses", "name"?}`: new clauses and/or a new name (`boomic
    /// taglist edit`).
    static func save(_ call: WebCall) async throws -> WebReply {
        let draft = try call.json(Draft.self)
        let lib = call.library
        try lib.refresh()
        let (id, current) = try find(try call.path("id"), in: lib.basis)
        let clauses = try draft.clauses.map { try parse($0, name: current.name, in: lib.basis).clauses }
        let rename = draft.name.flatMap { $0 == current.name ? nil : $0 }
        let caller = call.caller
        let done = try await run(call) {
            try lib.commit(kind: .taglist, message: nil, caller: caller) { basis in
                guard let now = basis.taglists[id] else { throw ListError.notFound(kind: "taglist", name: current.name, suggestion: nil) }
                let a = try TaglistGeneration.edit(now.name, clauses: clauses, rename: rename, on: basis)
                return a.isEmpty ? nil : (a, "taglist edit \(now.name)" + (rename.map { " → \($0)" } ?? "") + caller.byLine)
            }
        }
        return .json(try saved(id, lib, done))
    }

    /// `DELETE api/taglists/ID` (`boomic taglist rm`): its songs stay; undo brings it back.
    static func delete(_ call: WebCall) async throws -> WebReply {
        let lib = call.library
        try lib.refresh()
        let (id, current) = try find(try call.path("id"), in: lib.basis)
        let caller = call.caller
        let done = try await run(call) {
            try lib.commit(kind: .taglist, message: nil, caller: caller) { basis in
                guard basis.taglists[id] != nil else { throw ListError.notFound(kind: "taglist", name: current.name, suggestion: nil) }
                return (try TaglistGeneration.remove(current.name, on: basis), "taglist rm \(current.name)" + caller.byLine)
            }
        }
        return .json(["committed": done?.seq])
    }

    // MARK: Parts

    static func saved(_ id: ListID, _ lib: LibrarySession, _ done: (seq: Int, transaction: Transaction)?) throws -> Saved {
        guard let t = lib.basis.taglists[id] else { throw WebError.notFound("No taglist \(id).") }
        return Saved(id: id.description, name: t.name, clauses: t.arguments, songs: lib.basis.songCount(in: t, timeZone: .current),
                     committed: done?.seq, label: done?.transaction.label)
    }

    /// Reads clauses as `boomic taglist` does: with the library's own fields as field names
    /// when a clause names one (gathered only then: a pass over the songs).
    static func parse(_ clauses: [String], name: String = "draft", in basis: DataBasis) throws(WebError) -> Taglist {
        do {
            do {
                return try Taglist.parse(name: name, clauses: clauses)
            } catch {
                let names = basis.userFieldNames
                if names.isEmpty { throw error }
                return try Taglist.parse(name: name, clauses: clauses, userFields: names)
            }
        } catch {
            throw WebError.badRequest(error.localizedDescription)
        }
    }

    static func find(_ text: String, in basis: DataBasis) throws(WebError) -> (ListID, Taglist) {
        guard let id = ListID(uuidString: text), let t = basis.taglists[id] else {
            throw WebError.notFound("No taglist \(text.prefix(40)).")
        }
        return (id, t)
    }

    /// A commit on the front's queue; the library's refusals (a name taken, a list gone) are
    /// 409 with their line.
    static func run<T: Sendable>(_ call: WebCall, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await call.commit(body)
        } catch let error as ListError {
            throw WebError(.conflict, error.localizedDescription)
        } catch let error as LibraryError {
            throw WebError(.conflict, error.message)
        }
    }

    /// Runs `work` on a thread of Dispatch's global pool: a pass over every song keeps neither
    /// an event loop nor the task pool that answers other calls.
    static func offLoop<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in
            DispatchQueue.global(qos: .userInitiated).async { done.resume(returning: work()) }
        }
    }
}
