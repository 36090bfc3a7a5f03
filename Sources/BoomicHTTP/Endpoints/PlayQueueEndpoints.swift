import BoomicCore
import BoomicLibrary

/// `savePlayQueue` and `getPlayQueue`: the queue a user's client saves to resume on another
/// device, per user, in `listeners.json` beside the library (`ListenerStateStore`).
enum PlayQueueEndpoints {
    /// Replaces the caller's saved queue with the `id`s given (none clears it), `current` the
    /// song playing and `position` where in it (milliseconds).
    static func save(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try AnnotationEndpoints.caller(of: call)
        let context = call.front.annotations
        let basis = context.session.basis
        let songs = try call.parameters.all("id").map { id throws(SubsonicError) in try AnnotationEndpoints.song(id, in: basis) }
        let current = try call.parameters["current"].map { id throws(SubsonicError) in try AnnotationEndpoints.song(id, in: basis) }
        if let current, !songs.contains(current) { throw SubsonicError(.notFound, "The current song \(CatalogID.song(current)) is not in the queue.") }
        let position = try call.parameters.int("position") ?? 0
        let queue = ListenerState.PlayQueue(songs: songs, current: current, position: Int64(max(0, position)),
                                            changed: context.now(), changedBy: caller.client)
        let store = try BookmarkEndpoints.store(call)
        try await AnnotationEndpoints.commit(call) { try store.savePlayQueue(queue, for: caller.user) }
        return .empty
    }

    /// The caller's saved queue (its songs still in the library); the bare answer when none.
    static func get(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.requireUser()
        guard let queue = try BookmarkEndpoints.store(call).playQueue(of: user) else { return .empty }
        let basis = call.front.annotations.session.basis
        let catalog = await call.catalog()
        var e = SubsonicElement([
            "current": queue.current.map { .string(CatalogID.song($0)) }, "position": .int(Int(queue.position)),
            "username": .string(user), "changed": .string(BookmarkEndpoints.date(queue.changed)),
            "changedBy": .string(queue.changedBy),
        ])
        e.set("entry", list: queue.songs.compactMap { basis[$0].map { SubsonicSong.child($0, catalog: catalog) } })
        return .answer("playQueue", e)
    }
}
