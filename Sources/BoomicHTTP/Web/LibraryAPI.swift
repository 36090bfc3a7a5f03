import BoomicCore

/// The library pages' calls: albums (a page of them in an order), an album with its songs,
/// artists, an artist with their albums, search as the user types, a song with every field and
/// its blame (`LibraryAPI+Song`), a cover and a song's audio (`LibraryAPI+Media`). All read the
/// catalog `/rest` reads (built once per state of the library): ids are the catalog's.
enum LibraryAPI {
    static let routes: [WebRoute] = [
        WebRoute(.get, "albums", albums),
        WebRoute(.get, "albums/{id}", album),
        WebRoute(.get, "artists", artists),
        WebRoute(.get, "artists/{id}", artist),
        WebRoute(.get, "search", search),
        WebRoute(.get, "songs/{id}", song),
        WebRoute(.get, "cover/{id}", cover),
        WebRoute(.get, "stream/{id}", stream),
    ]

    /// The orders `api/albums` takes (`getAlbumList2`'s types without parameters).
    static let orders = ["alphabeticalByArtist", "alphabeticalByName", "newest", "recent", "frequent", "starred", "highest", "random"]

    struct AlbumPage: Encodable, Sendable {
        var albums: [LibraryRows.Album]
        var total: Int
        var offset: Int
    }

    /// `GET api/albums?order=alphabeticalByArtist&offset=0&size=60`: one page of albums (size
    /// at most 500) and how many there are.
    static func albums(_ call: WebCall) async throws -> WebReply {
        let name = call.query["order"] ?? "alphabeticalByArtist"
        guard orders.contains(name), let order = AlbumListType(subsonicType: name, seed: UInt64.random(in: 0 ... .max)) else {
            throw WebError.badRequest("order is one of \(orders.joined(separator: ", ")).")
        }
        let offset = try number(call, "offset") ?? 0
        let size = try number(call, "size") ?? 60
        let catalog = await call.catalog()
        let page = catalog.albumList(order, size: size, offset: offset)
        return .json(AlbumPage(albums: page.map(LibraryRows.Album.init), total: catalog.albums.count, offset: offset))
    }

    struct AlbumDetail: Encodable, Sendable {
        var album: LibraryRows.Album
        var songs: [LibraryRows.Song]
    }

    /// `GET api/albums/{id}`: the album and its songs in disc order.
    static func album(_ call: WebCall) async throws -> WebReply {
        let id = try call.path("id")
        let catalog = await call.catalog()
        guard let album = catalog.album(id: id) else { throw WebError.notFound("No album \(brief(id)).") }
        return .json(AlbumDetail(album: .init(album), songs: catalog.songs(of: album).map { .init($0, in: catalog) }))
    }

    struct ArtistList: Encodable, Sendable {
        var artists: [LibraryRows.Artist]
    }

    /// `GET api/artists`: every artist albums are filed under, in the catalog's order.
    static func artists(_ call: WebCall) async throws -> WebReply {
        let catalog = await call.catalog()
        return .json(ArtistList(artists: catalog.artists.map(LibraryRows.Artist.init)))
    }

    struct ArtistDetail: Encodable, Sendable {
        var artist: LibraryRows.Artist
        var albums: [LibraryRows.Album]
    }

    /// `GET api/artists/{id}`: the artist and their albums, by year.
    static func artist(_ call: WebCall) async throws -> WebReply {
        let id = try call.path("id")
        let catalog = await call.catalog()
        guard let artist = catalog.artist(id: id) else { throw WebError.notFound("No artist \(brief(id)).") }
        return .json(ArtistDetail(artist: .init(artist), albums: catalog.albums(of: artist).map(LibraryRows.Album.init)))
    }

    struct Found: Encodable, Sendable {
        var query: String
        var artists: [LibraryRows.Artist]
        var albums: [LibraryRows.Album]
        var songs: [LibraryRows.Song]
    }

    /// `GET api/search?q=miles kin`: the catalog's search (every word starts a word of a name;
    /// case and accents folded): up to 10 artists, 20 albums and 50 songs. An empty query finds
    /// nothing (the page shows the library instead).
    static func search(_ call: WebCall) async throws -> WebReply {
        let query = String((call.query["q"] ?? "").prefix(200))
        guard query.contains(where: { $0.isLetter || $0.isNumber }) else {
            return .json(Found(query: query, artists: [], albums: [], songs: []))
        }
        let catalog = await call.catalog()
        let found = catalog.search(query, artistCount: 10, albumCount: 20, songCount: 50)
        return .json(Found(query: query, artists: found.artists.map(LibraryRows.Artist.init),
                           albums: found.albums.map(LibraryRows.Album.init), songs: found.songs.map { .init($0, in: catalog) }))
    }

    /// A whole number of the query, nil when absent; 400 when it is not one or is negative.
    static func number(_ call: WebCall, _ name: String) throws(WebError) -> Int? {
        guard let text = call.query[name] else { return nil }
        guard let value = Int(text), value >= 0 else { throw WebError.badRequest("\(name) is a whole number, not '\(brief(text))'.") }
        return value
    }

    /// A client's text as an error names it: at most 80 characters.
    static func brief(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(79)) + "…" : text
    }
}
