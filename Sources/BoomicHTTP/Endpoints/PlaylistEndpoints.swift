import BoomicCore
import BoomicLibrary
import Foundation

/// `getPlaylists`, `getPlaylist`, `createPlaylist`, `updatePlaylist`, `deletePlaylist` over
/// Boomic's playlists (`boomic playlist`): each change is ONE transaction of kind `playlist`
/// whose provenance names the user and the client, so `boomic history` shows it and `boomic
/// undo` takes it back.
///
/// A playlist's id is `pl-` and its `ListID`: it survives a rename. Playlists are the
/// household's, like the library: every account sees and may change every one, and each is
/// answered as owned by the caller (clients offer to edit only their own).
enum PlaylistEndpoints {
    static let prefix = "pl-"

    static func list(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.requireUser()
        let basis = call.front.annotations.session.basis
        var list = SubsonicElement()
        list.set("playlist", list: basis.playlistsByName.map { element($0.id, $0.playlist, owner: user, basis: basis, entries: nil) })
        return .answer("playlists", list)
    }

    static func get(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.requireUser()
        let basis = call.front.annotations.session.basis
        let (id, playlist) = try find(try call.parameters.required("id"), in: basis)
        return .answer("playlist", element(id, playlist, owner: user, basis: basis, entries: await call.catalog()))
    }

    /// With `name`: a new playlist of the `songId`s; with `playlistId`: that playlist's songs
    /// replaced by them. Answers the playlist (Subsonic 1.14).
    static func create(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try AnnotationEndpoints.caller(of: call)
        let session = call.front.annotations.session
        let songs = try call.parameters.all("songId").map { id throws(SubsonicError) in try AnnotationEndpoints.song(id, in: session.basis) }
        let id: ListID
        if let given = call.parameters["playlistId"] {
            id = try find(given, in: session.basis).0
            try await AnnotationEndpoints.commit(call) {
                _ = try session.commit(kind: .playlist, message: nil, caller: caller) { basis in
                    let (_, old) = try find(id, in: basis)
                    let a = try PlaylistGeneration.replace(old.name, songs: songs, on: basis)
                    return a.isEmpty ? nil : (a, "playlist replace \(old.name)" + caller.byLine)
                }
            }
        } else {
            let name = try call.parameters.required("name")
            id = ListID(UUID())
            try await AnnotationEndpoints.commit(call) {
                _ = try session.commit(kind: .playlist, message: nil, caller: caller) { basis in
                    let a = try PlaylistGeneration.create(name, songs: songs, id: id, on: basis)
                    return (a, "playlist new \(OneLine.visible(name))" + caller.byLine)
                }
            }
        }
        let basis = session.basis
        let (_, playlist) = try find(id, in: basis)
        return .answer("playlist", element(id, playlist, owner: caller.user, basis: basis, entries: await call.catalog()))
    }

    /// `name` renames it, `songIndexToRemove` (0-based positions among the entries `getPlaylist`
    /// answered) removes, `songIdToAdd` appends: all in one transaction. `comment` and `public`
    /// are accepted and not kept (a Boomic playlist has neither).
    static func update(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try AnnotationEndpoints.caller(of: call)
        let session = call.front.annotations.session
        let p = call.parameters
        let id = try find(try p.required("playlistId"), in: session.basis).0
        let adding = try p.all("songIdToAdd").map { s throws(SubsonicError) in try AnnotationEndpoints.song(s, in: session.basis) }
        let removing = try p.all("songIndexToRemove").map { text throws(SubsonicError) -> Int in
            guard let n = Int(text), n >= 0 else { throw SubsonicError(.missingParameter, "Parameter songIndexToRemove must be a position from 0.") }
            return n
        }
        let name = p["name"]
        try await AnnotationEndpoints.commit(call) {
            _ = try session.commit(kind: .playlist, message: nil, caller: caller) { basis in
                let (_, old) = try find(id, in: basis)
                var new = old
                if let name {
                    new.name = try ListNames.validated(name, kind: "playlist")
                    if let (other, existing) = basis.playlist(named: new.name), other != id {
                        throw ListError.exists(kind: "playlist", name: existing.name)
                    }
                }
                let shown = visible(old, in: basis)
                for index in removing where index >= shown.count {
                    throw SubsonicError(.notFound, "Playlist \(old.name) has no entry \(index) (it has \(shown.count)).")
                }
                for position in Set(removing.map { shown[$0] }).sorted(by: >) { new.songs.remove(at: position) }
                new.songs += adding
                guard new != old else { return nil }
                let verb = new.name != old.name ? "playlist rename \(old.name) → \(new.name)" : "playlist change \(old.name)"
                return ([.playlist(id, EntityChange(old: old, new: new))], OneLine.visible(verb) + caller.byLine)
            }
        }
        return .empty
    }

    static func delete(_ call: SubsonicCall) async throws -> SubsonicReply {
        let caller = try AnnotationEndpoints.caller(of: call)
        let session = call.front.annotations.session
        let id = try find(try call.parameters.required("id"), in: session.basis).0
        try await AnnotationEndpoints.commit(call) {
            _ = try session.commit(kind: .playlist, message: nil, caller: caller) { basis in
                let (_, old) = try find(id, in: basis)
                return ([.playlist(id, EntityChange(old: old, new: nil))], "playlist rm \(old.name)" + caller.byLine)
            }
        }
        return .empty
    }

    // MARK: Ids and answers

    static func id(_ list: ListID) -> String { prefix + list.description }

    /// The playlist an id names; error 70 for any other text.
    static func find(_ text: String, in basis: DataBasis) throws(SubsonicError) -> (ListID, Playlist) {
        guard text.hasPrefix(prefix), text.utf8.count == prefix.utf8.count + 36,
              let id = ListID(uuidString: String(text.dropFirst(prefix.count))) else {
            throw SubsonicError(.notFound, "No playlist \(String(text.prefix(80))).")
        }
        return try find(id, in: basis)
    }

    static func find(_ id: ListID, in basis: DataBasis) throws(SubsonicError) -> (ListID, Playlist) {
        guard let playlist = basis.playlists[id] else { throw SubsonicError(.notFound, "No playlist \(Self.id(id)).") }
        return (id, playlist)
    }

    /// The positions in `playlist.songs` of the entries a client sees: songs in the library and
    /// not missing (an entry of a removed song comes back if the removal is undone).
    static func visible(_ playlist: Playlist, in basis: DataBasis) -> [Int] {
        playlist.songs.indices.filter { basis[playlist.songs[$0]].map { !$0.missing } ?? false }
    }

    static func element(_ id: ListID, _ playlist: Playlist, owner: String, basis: DataBasis, entries catalog: Catalog?) -> SubsonicElement {
        let songs = visible(playlist, in: basis).compactMap { basis[playlist.songs[$0]] }
        var e = SubsonicElement([
            "id": .string(Self.id(id)), "name": .string(playlist.name), "owner": .string(owner), "public": true,
            "songCount": .int(songs.count), "duration": .int(Int(songs.reduce(0) { $0 + ($1.duration ?? 0) }.rounded())),
        ])
        if let catalog { e.set("entry", list: songs.map { SubsonicSong.child($0, catalog: catalog) }) }
        return e
    }
}
