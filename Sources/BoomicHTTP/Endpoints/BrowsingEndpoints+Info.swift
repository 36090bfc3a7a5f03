import BoomicCore

/// `getArtistInfo(2)`, `getAlbumInfo(2)`, `getTopSongs`, `getSimilarSongs(2)`: what the library
/// itself knows. Boomic asks no web service (Last.fm, MusicBrainz): an artist's or album's info
/// is its MusicBrainz id when the files carry one, with no biography, notes or images, and no
/// similar artists or songs — answers a client shows as empty rather than as an error.
extension BrowsingEndpoints {
    static func artistInfo2(_ call: SubsonicCall) async throws -> SubsonicReply {
        .answer("artistInfo2", try await artistInfo(of: call))
    }

    static func artistInfo(_ call: SubsonicCall) async throws -> SubsonicReply {
        .answer("artistInfo", try await artistInfo(of: call))
    }

    private static func artistInfo(of call: SubsonicCall) async throws -> SubsonicElement {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        guard let artist = catalog.artist(id: id) else { throw notFound("artist", id) }
        var body = SubsonicElement()
        body["musicBrainzId"] = artist.musicBrainzID.map(SubsonicValue.string)
        body.set("similarArtist", list: [])
        return body
    }

    /// An album's info (`getAlbumInfo2`); `getAlbumInfo` takes the same album ids.
    static func albumInfo(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        guard let album = catalog.album(id: id) else { throw notFound("album", id) }
        var body = SubsonicElement()
        body["musicBrainzId"] = album.musicBrainzID.map(SubsonicValue.string)
        return .answer("albumInfo", body)
    }

    /// An artist's most played songs (`getTopSongs`), by name: any artist a song names, not
    /// only those albums are filed under (`Catalog.topSongs`); `count` defaults to 50.
    static func topSongs(_ call: SubsonicCall) async throws -> SubsonicReply {
        let name = try call.parameters.required("artist")
        let count = try call.parameters.int("count") ?? 50
        let catalog = await call.catalog()
        var body = SubsonicElement()
        body.set("song", list: SubsonicSong.children(catalog.topSongs(artist: name, count: min(count, Catalog.maxPageSize)),
                                                    catalog: catalog))
        return .answer("topSongs", body)
    }

    /// Songs like an artist's (`getSimilarSongs2`): none, for Boomic knows no likeness; the
    /// id must still name an artist.
    static func similarSongs2(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        guard catalog.artist(id: id) != nil else { throw notFound("artist", id) }
        var body = SubsonicElement()
        body.set("song", list: [])
        return .answer("similarSongs2", body)
    }

    /// Songs like a song, album or artist (`getSimilarSongs`): none, as above.
    static func similarSongs(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let catalog = await call.catalog()
        guard catalog.entity(forID: id) != nil else { throw notFound("song, album or artist", id) }
        var body = SubsonicElement()
        body.set("song", list: [])
        return .answer("similarSongs", body)
    }
}
