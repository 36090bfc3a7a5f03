import BoomicCore

/// `search3` and `search2`: artists, albums and songs matching a query, a page of each
/// (`Catalog.search`). A missing, empty or `""` query matches everything, so that paging with
/// `songOffset` goes through the whole library exactly once, as Symfonium and other clients
/// sync. Counts default to 20; a negative count or offset is 0.
enum SearchEndpoints {
    static func search3(_ call: SubsonicCall) async throws -> SubsonicReply {
        let (found, catalog) = try await search(call)
        var body = SubsonicElement()
        body.set("artist", list: found.artists.map { SubsonicSong.artist($0, catalog: catalog) })
        body.set("album", list: found.albums.map { SubsonicSong.album($0, catalog: catalog) })
        body.set("song", list: SubsonicSong.children(found.songs, catalog: catalog))
        return .answer("searchResult3", body)
    }

    /// The same as folders.
    static func search2(_ call: SubsonicCall) async throws -> SubsonicReply {
        let (found, catalog) = try await search(call)
        var body = SubsonicElement()
        body.set("artist", list: found.artists.map { SubsonicSong.artist($0, catalog: catalog) })
        body.set("album", list: found.albums.map { SubsonicSong.directory($0, catalog: catalog) })
        body.set("song", list: SubsonicSong.children(found.songs, catalog: catalog))
        return .answer("searchResult2", body)
    }

    static func search(_ call: SubsonicCall) async throws -> (CatalogSearchResult, Catalog) {
        let p = call.parameters
        let query = p["query"] ?? ""
        let counts = try (p.int("artistCount") ?? 20, p.int("artistOffset") ?? 0,
                          p.int("albumCount") ?? 20, p.int("albumOffset") ?? 0,
                          p.int("songCount") ?? 20, p.int("songOffset") ?? 0)
        let catalog = await call.catalog()
        let found = catalog.search(query, artistCount: counts.0, artistOffset: counts.1, albumCount: counts.2,
                                   albumOffset: counts.3, songCount: counts.4, songOffset: counts.5)
        return (found, catalog)
    }
}
