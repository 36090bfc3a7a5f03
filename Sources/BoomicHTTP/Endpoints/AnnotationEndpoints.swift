import BoomicCore
import BoomicLibrary
import Foundation

/// `star`, `unstar`, `setRating` and `scrobble`: each change one transaction (a play each, for
/// scrobbles) whose provenance names the user and the client (`AnnotationFlow`, `Listening`),
/// committed on the front's commit queue (`AnnotationContext.run`).
///
/// Favourites, ratings and plays are the household's: one library shared by every account.
enum AnnotationEndpoints {
    static func star(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try caller(of: call)
        let (songs, keys) = try targets(call)
        let context = call.front.annotations
        let time = context.now()
        try await commit(call) { _ = try AnnotationFlow.star(context.session, songs: songs, others: keys, by: caller, at: time) }
        return .empty
    }

    static func unstar(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try caller(of: call)
        let (songs, keys) = try targets(call)
        let context = call.front.annotations
        try await commit(call) { _ = try AnnotationFlow.unstar(context.session, songs: songs, others: keys, by: caller) }
        return .empty
    }

    /// `setRating`: a song's, an album's or an artist's rating, 1–5, 0 clearing it.
    static func setRating(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try caller(of: call)
        let id = try call.parameters.required("id")
        guard let rating = try call.parameters.int("rating") else { throw SubsonicError.missing("rating") }
        let context = call.front.annotations
        switch try entity(id, in: call) {
        case .song(let song):
            try await commit(call) { _ = try AnnotationFlow.setRating(context.session, song: song, rating: rating, by: caller) }
        case .other(let key):
            try await commit(call) { _ = try AnnotationFlow.setRating(context.session, key, rating: rating, by: caller) }
        }
        return .empty
    }

    /// `scrobble`: with `submission=true` (the default) one play per `id` at its `time`
    /// (milliseconds; now when absent or later than now), each counted once; with
    /// `submission=false`, now playing.
    static func scrobble(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try caller(of: call)
        let ids = call.parameters.all("id")
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        let times = try call.parameters.all("time").map { text throws(SubsonicError) -> Double in
            guard let ms = Int64(text), ms >= 0 else { throw SubsonicError(.missingParameter, "Parameter time must be a whole number of milliseconds.") }
            return Double(ms) / 1000
        }
        let basis = call.front.annotations.session.basis
        let songs = try ids.map { id throws(SubsonicError) in try song(id, in: basis) }
        let submission = call.parameters.bool("submission") ?? true
        let context = call.front.annotations
        let now = context.now()
        try await commit(call) {
            for (i, song) in songs.enumerated() {
                // A clock ahead of the server's is no play in the future.
                let time = i < times.count ? min(times[i], now) : now
                if submission {
                    _ = try context.listening.scrobble(song, by: caller, at: time)
                } else {
                    try context.listening.nowPlaying(song, by: caller, at: now)
                }
            }
        }
        return .empty
    }

    // MARK: Shared by the endpoints of this front

    /// Who made the change: the user and the client (`c=`), as provenance names them.
    static func caller(of call: SubsonicCall) throws(SubsonicError) -> Caller {
        Caller(user: try call.requireUser(), client: call.client ?? "")
    }

    /// Runs a change on the commit queue, its library errors answered by their Subsonic codes.
    static func commit(_ call: SubsonicCall, _ body: @escaping @Sendable () throws -> Void) async throws {
        do { try await call.front.annotations.run(body) } catch { throw subsonic(error) }
    }

    /// A library error as the client hears it: a song, playlist or bookmark not found is 70, a
    /// bad rating 10, anything else 0 with its one line.
    static func subsonic(_ error: any Error) -> any Error {
        switch error {
        case let e as SubsonicError: e
        case AnnotationError.songNotFound(let id): SubsonicError(.notFound, "No song \(CatalogID.song(id)).")
        case let e as AnnotationError: SubsonicError(.missingParameter, e.message)
        case let e as ListError:
            if case .notFound = e { SubsonicError(.notFound, e.localizedDescription) } else { SubsonicError(.generic, e.localizedDescription) }
        default: SubsonicError(.generic, error.localizedDescription)
        }
    }

    /// The song an id names in `basis`; error 70 for an id that is no song's (a path, an album's
    /// id, a song removed).
    static func song(_ id: String, in basis: DataBasis) throws(SubsonicError) -> SongID {
        guard case .song(let song)? = CatalogID.parse(id), basis[song] != nil else {
            throw SubsonicError(.notFound, "No song \(String(id.prefix(80))).")
        }
        return song
    }

    /// What a star or a rating lands on.
    enum Target {
        case song(SongID)
        case other(AnnotationKey)
    }

    /// The song, album or artist an id names; error 70 when it names none.
    static func entity(_ id: String, in call: SubsonicCall, catalog: Catalog? = nil) throws(SubsonicError) -> Target {
        switch CatalogID.parse(id) {
        case .song?: return .song(try song(id, in: call.front.annotations.session.basis))
        case .album?:
            let catalog = catalog ?? Catalog(call.front.annotations.session.basis)
            guard let album = catalog.album(id: id), let key = catalog.annotationKey(of: album) else {
                throw SubsonicError(.notFound, "No album \(id).")
            }
            return .other(key)
        case .artist?:
            let catalog = catalog ?? Catalog(call.front.annotations.session.basis)
            guard let artist = catalog.artist(id: id) else { throw SubsonicError(.notFound, "No artist \(id).") }
            return .other(catalog.annotationKey(of: artist))
        case nil: throw SubsonicError(.notFound, "No song, album or artist \(String(id.prefix(80))).")
        }
    }

    /// `star`'s and `unstar`'s songs (`id`) and albums and artists (`albumId`, `artistId`, or an
    /// album's or artist's id given as `id`), several of each; error 10 when none is given.
    static func targets(_ call: SubsonicCall) throws(SubsonicError) -> (songs: [SongID], keys: [AnnotationKey]) {
        let p = call.parameters
        let ids = p.all("id"), albums = p.all("albumId"), artists = p.all("artistId")
        guard !(ids + albums + artists).isEmpty else { throw SubsonicError.missing("id") }
        let needsCatalog = !(albums + artists).isEmpty || ids.contains { !$0.hasPrefix("so-") }
        let catalog = needsCatalog ? Catalog(call.front.annotations.session.basis) : nil
        for id in albums where !id.hasPrefix("al-") { throw SubsonicError(.notFound, "No album \(String(id.prefix(80))).") }
        for id in artists where !id.hasPrefix("ar-") { throw SubsonicError(.notFound, "No artist \(String(id.prefix(80))).") }
        var songs: [SongID] = [], keys: [AnnotationKey] = []
        for id in ids + albums + artists {
            switch try entity(id, in: call, catalog: catalog) {
            case .song(let s): songs.append(s)
            case .other(let k): keys.append(k)
            }
        }
        return (songs, keys)
    }
}
