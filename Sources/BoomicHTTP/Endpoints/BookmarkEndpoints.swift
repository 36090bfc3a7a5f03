import BoomicCore
import BoomicLibrary
import Foundation

/// `createBookmark`, `getBookmarks`, `deleteBookmark`: each user's positions in songs (in
/// milliseconds, with a comment), in `listeners.json` beside the library (`ListenerStateStore`):
/// not history, so rollback never touches them and export never carries them.
enum BookmarkEndpoints {
    static func create(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.requireUser()
        let context = call.front.annotations
        let song = try AnnotationEndpoints.song(try call.parameters.required("id"), in: context.session.basis)
        guard let position = try call.parameters.int("position") else { throw SubsonicError.missing("position") }
        let comment = call.parameters["comment"].map { String($0.prefix(1000)) }
        let store = try store(call)
        let time = context.now()
        try await AnnotationEndpoints.commit(call) {
            try store.setBookmark(song, position: Int64(position), comment: comment, for: user, at: time)
        }
        return .empty
    }

    /// The caller's bookmarks, the most recently changed first; a bookmark of a song no longer
    /// in the library is left out.
    static func list(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.requireUser()
        let basis = call.front.annotations.session.basis
        let catalog = await call.catalog()
        var list = SubsonicElement()
        list.set("bookmark", list: try store(call).bookmarks(of: user).compactMap { b in
            guard let song = basis[b.song] else { return nil }
            var e = SubsonicElement([
                "position": .int(Int(b.position)), "username": .string(user), "comment": b.comment.map(SubsonicValue.string),
                "created": .string(date(b.created)), "changed": .string(date(b.changed)),
            ])
            e.set("entry", element: SubsonicSong.child(song, catalog: catalog))
            return e
        })
        return .answer("bookmarks", list)
    }

    /// Removes the caller's bookmark in a song; error 70 when there is none.
    static func delete(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.requireUser()
        let id = try call.parameters.required("id")
        guard case .song(let song)? = CatalogID.parse(id) else { throw SubsonicError(.notFound, "No song \(String(id.prefix(80))).") }
        let store = try store(call)
        let had = try await call.front.annotations.run { try store.deleteBookmark(song, for: user) }
        guard had else { throw SubsonicError(.notFound, "No bookmark in \(id).") }
        return .empty
    }

    static func store(_ call: SubsonicCall) throws -> ListenerStateStore {
        do { return try call.front.annotations.store() } catch { throw SubsonicError(.generic, error.localizedDescription) }
    }

    /// A time (seconds since 1970) as Subsonic writes dates: ISO 8601 in UTC, with milliseconds.
    static func date(_ time: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: Date(timeIntervalSince1970: time))
    }
}
