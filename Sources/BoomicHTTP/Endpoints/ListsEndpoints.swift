import BoomicCore

/// `getAlbumList2`, `getAlbumList`, `getRandomSongs`, `getSongsByGenre`, `getStarred2`,
/// `getStarred`: the library's lists, answered from the front's catalog (`Catalog+Lists`).
enum ListsEndpoints {
    /// One page of an album list as ID3 albums (`getAlbumList2`).
    static func albumList2(_ call: SubsonicCall) async throws -> SubsonicReply {
        let (albums, catalog) = try await page(call)
        var body = SubsonicElement()
        body.set("album", list: albums.map { SubsonicSong.album($0, catalog: catalog) })
        return .answer("albumList2", body)
    }

    /// The same page as folders (`getAlbumList`).
    static func albumList(_ call: SubsonicCall) async throws -> SubsonicReply {
        let (albums, catalog) = try await page(call)
        var body = SubsonicElement()
        body.set("album", list: albums.map { SubsonicSong.directory($0, catalog: catalog) })
        return .answer("albumList", body)
    }

    /// The page `type`, `size` (default 10, at most 500), `offset`, `fromYear`/`toYear` and
    /// `genre` ask for. As Navidrome: a missing `type` (or a `byYear` without its years, a
    /// `byGenre` without its genre) is error 10, an unknown one error 0. `starred` lists the
    /// albums starred themselves (their annotation), by name.
    static func page(_ call: SubsonicCall) async throws -> ([CatalogAlbum], Catalog) {
        let p = call.parameters
        let name = try p.required("type")
        let fromYear = try p.int("fromYear"), toYear = try p.int("toYear")
        let size = try p.int("size") ?? 10, offset = try p.int("offset") ?? 0
        guard let type = AlbumListType(subsonicType: name, fromYear: fromYear, toYear: toYear, genre: p["genre"],
                                       seed: UInt64.random(in: .min ... .max)) else {
            switch name {
            case "byYear": throw SubsonicError.missing(fromYear == nil ? "fromYear" : "toYear")
            case "byGenre": throw SubsonicError.missing("genre")
            default: throw SubsonicError(.generic, "Unknown album list type \"\(name.prefix(40))\".")
            }
        }
        let catalog = await call.catalog()
        return (catalog.albumList(type, size: size, offset: offset) { $0.starred != nil }, catalog)
    }

    /// Random songs (`getRandomSongs`): `size` (default 10, at most 500), of `genre`, from
    /// `fromYear` to `toYear`.
    static func randomSongs(_ call: SubsonicCall) async throws -> SubsonicReply {
        let p = call.parameters
        let size = try p.int("size") ?? 10
        let fromYear = try p.int("fromYear"), toYear = try p.int("toYear")
        let catalog = await call.catalog()
        let songs = catalog.randomSongs(size: size, genre: p["genre"], fromYear: fromYear, toYear: toYear,
                                        seed: UInt64.random(in: .min ... .max))
        var body = SubsonicElement()
        body.set("song", list: SubsonicSong.children(songs, catalog: catalog))
        return .answer("randomSongs", body)
    }

    /// One page of a genre's songs (`getSongsByGenre`): `count` (default 10, at most 500),
    /// `offset`, album after album.
    static func songsByGenre(_ call: SubsonicCall) async throws -> SubsonicReply {
        let p = call.parameters
        let genre = try p.required("genre")
        let count = try p.int("count") ?? 10, offset = try p.int("offset") ?? 0
        let catalog = await call.catalog()
        var body = SubsonicElement()
        body.set("song", list: SubsonicSong.children(catalog.songs(genre: genre, count: count, offset: offset), catalog: catalog))
        return .answer("songsByGenre", body)
    }

    /// What the household starred (`getStarred2`): artists and albums starred themselves (their
    /// annotation), songs whose favourite is set; each in the catalog's order.
    static func starred2(_ call: SubsonicCall) async throws -> SubsonicReply {
        await starred(call, answer: "starred2", album: SubsonicSong.album)
    }

    /// The same as folders (`getStarred`).
    static func starred(_ call: SubsonicCall) async throws -> SubsonicReply {
        await starred(call, answer: "starred", album: SubsonicSong.directory)
    }

    private static func starred(_ call: SubsonicCall, answer: String,
                                album: (CatalogAlbum, Catalog) -> SubsonicElement) async -> SubsonicReply {
        let catalog = await call.catalog()
        var body = SubsonicElement()
        body.set("artist", list: catalog.artists.filter { $0.starred != nil }.map { SubsonicSong.artist($0, catalog: catalog) })
        body.set("album", list: catalog.albums.filter { $0.starred != nil }.map { album($0, catalog) })
        body.set("song", list: SubsonicSong.children(catalog.songs.lazy.filter(\.favorite), catalog: catalog))
        return .answer(answer, body)
    }
}
