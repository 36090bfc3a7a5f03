import BoomicCore

/// `getIndexes`, `getMusicDirectory`, `getGenres`, `getArtists`, `getArtist`, `getAlbum`,
/// `getSong`: the library by artist, album and song, answered from the front's catalog.
///
/// Boomic's catalog is one library over all its music folders: `musicFolderId` narrows
/// nothing (every folder holds every artist). An id that names nothing of the catalog — a
/// path, `../`, a huge or malformed text, the id of a song gone missing — is error 70.
enum BrowsingEndpoints {
    /// The artists by letter, as folders (`getIndexes`). With `ifModifiedSince` (milliseconds
    /// since 1970) at or after the library's `lastModified`, the answer carries no index: the
    /// client's copy is current.
    static func indexes(_ call: SubsonicCall) async throws -> SubsonicReply {
        let since = try call.parameters.int("ifModifiedSince")
        let current = await call.currentCatalog()
        let lastModified = Int((current.since * 1000).rounded(.down))
        var body = SubsonicElement()
        body["lastModified"] = .int(lastModified)
        body["ignoredArticles"] = .string(Catalog.defaultIgnoredArticles.joined(separator: " "))
        if let since, since >= lastModified { return .answer("indexes", body) }
        body.set("index", list: letters(current.catalog))
        return .answer("indexes", body)
    }

    /// The artists by letter, as ID3 artists (`getArtists`).
    static func artists(_ call: SubsonicCall) async throws -> SubsonicReply {
        let catalog = await call.catalog()
        var body = SubsonicElement()
        body["ignoredArticles"] = .string(Catalog.defaultIgnoredArticles.joined(separator: " "))
        body.set("index", list: letters(catalog))
        return .answer("artists", body)
    }

    static func letters(_ catalog: Catalog) -> [SubsonicElement] {
        catalog.indexes().map { index in
            var e = SubsonicElement(["name": .string(index.letter)])
            e.set("artist", list: index.artists.map { SubsonicSong.artist($0, catalog: catalog) })
            return e
        }
    }

    /// One folder (`getMusicDirectory`): an artist's albums as folders, or an album's songs.
    static func musicDirectory(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        var body = SubsonicElement()
        switch catalog.entity(forID: id) {
        case .artist(let artist)?:
            body["id"] = .string(artist.id)
            body["name"] = .string(artist.name)
            body["starred"] = artist.starred.map { .string(SubsonicTime.iso($0)) }
            body["userRating"] = artist.userRating.map(SubsonicValue.int)
            body["playCount"] = .int(catalog.albums(of: artist).reduce(0) { $0 + $1.playCount })
            body.set("child", list: catalog.albums(of: artist).map { SubsonicSong.directory($0, catalog: catalog) })
        case .album(let album)?:
            body["id"] = .string(album.id)
            body["parent"] = .string(album.artistID)
            body["name"] = .string(album.name)
            body["starred"] = album.starred.map { .string(SubsonicTime.iso($0)) }
            body["userRating"] = album.userRating.map(SubsonicValue.int)
            body["playCount"] = .int(album.playCount)
            body.set("child", list: SubsonicSong.children(catalog.songs(of: album), catalog: catalog))
        case .song?, nil:
            throw notFound("directory", id)
        }
        return .answer("directory", body)
    }

    /// Every genre with its song and album counts (`getGenres`), by name.
    static func genres(_ call: SubsonicCall) async throws -> SubsonicReply {
        let catalog = await call.catalog()
        var body = SubsonicElement()
        body.set("genre", list: catalog.genres.map { g in
            var e = SubsonicElement(["songCount": .int(g.songCount), "albumCount": .int(g.albumCount)])
            e.text = g.name
            return e
        })
        return .answer("genres", body)
    }

    /// An artist with their albums (`getArtist`), by year, then name.
    static func artist(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        guard let artist = catalog.artist(id: id) else { throw notFound("artist", id) }
        var body = SubsonicSong.artist(artist, catalog: catalog)
        body.set("album", list: catalog.albums(of: artist).map { SubsonicSong.album($0, catalog: catalog) })
        return .answer("artist", body)
    }

    /// An album with its songs (`getAlbum`), in disc order.
    static func album(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        guard let album = catalog.album(id: id) else { throw notFound("album", id) }
        var body = SubsonicSong.album(album, catalog: catalog)
        body.set("song", list: SubsonicSong.children(catalog.songs(of: album), catalog: catalog))
        return .answer("album", body)
    }

    /// One song (`getSong`).
    static func song(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        guard let song = catalog.song(id: id) else { throw notFound("song", id) }
        return .answer("song", SubsonicSong.child(song, catalog: catalog))
    }

    /// Error 70 for an id of nothing; the id is quoted cut short (a client may send anything).
    static func notFound(_ kind: String, _ id: String) -> SubsonicError {
        let shown = id.count > 40 ? String(id.prefix(40)) + "…" : id
        return SubsonicError(.notFound, "No \(kind) with id \"\(shown)\".")
    }
}
