import BoomicCore

extension SubsonicSong {
    /// A catalog album as Subsonic's `AlbumID3` (`getAlbum`, `getAlbumList2`, `search3`), with
    /// OpenSubsonic's additions. Its `userRating` is the album's own (its annotation); its
    /// `starred` the time the album was starred.
    public static func album(_ album: CatalogAlbum, catalog: Catalog) -> SubsonicElement {
        let first = catalog.songs(of: album).first
        var e = SubsonicElement()
        e["id"] = .string(album.id)
        e["name"] = .string(album.name)
        e["artist"] = .string(album.artist)
        e["artistId"] = .string(album.artistID)
        e["coverArt"] = album.coverArt == nil ? nil : .string(album.id)
        e["songCount"] = .int(album.songCount)
        e["duration"] = .int(seconds(album.duration))
        e["playCount"] = .int(album.playCount)
        e["created"] = .string(SubsonicTime.iso(album.created))
        e["year"] = album.year.map(SubsonicValue.int)
        e["genre"] = album.genre.map(SubsonicValue.string)
        e["starred"] = album.starred.map { .string(SubsonicTime.iso($0)) }
        e["userRating"] = album.userRating.map(SubsonicValue.int)
        e["played"] = album.lastPlayed.map { .string(SubsonicTime.iso($0)) }
        e["musicBrainzId"] = album.musicBrainzID.map(SubsonicValue.string)
        e["sortName"] = first?.albumSort.flatMap { $0.isEmpty ? nil : .string($0) }
        e.set("genres", list: albumGenres(album, catalog: catalog))
        e.set("artists", list: [reference(name: album.artist, id: album.artistID)])
        e["displayArtist"] = .string(album.artist)
        e["isCompilation"] = .bool(album.isCompilation)
        return e
    }

    /// A catalog album as a directory `Child` (`getMusicDirectory` of an artist, `getAlbumList`,
    /// `search2`), its parent the artist.
    public static func directory(_ album: CatalogAlbum, catalog: Catalog) -> SubsonicElement {
        var e = SubsonicElement()
        e["id"] = .string(album.id)
        e["parent"] = .string(album.artistID)
        e["isDir"] = true
        e["title"] = .string(album.name)
        e["name"] = .string(album.name)
        e["album"] = .string(album.name)
        e["artist"] = .string(album.artist)
        e["year"] = album.year.map(SubsonicValue.int)
        e["genre"] = album.genre.map(SubsonicValue.string)
        e["coverArt"] = album.coverArt == nil ? nil : .string(album.id)
        e["duration"] = .int(seconds(album.duration))
        e["playCount"] = .int(album.playCount)
        e["created"] = .string(SubsonicTime.iso(album.created))
        e["albumId"] = .string(album.id)
        e["artistId"] = .string(album.artistID)
        e["songCount"] = .int(album.songCount)
        e["starred"] = album.starred.map { .string(SubsonicTime.iso($0)) }
        e["userRating"] = album.userRating.map(SubsonicValue.int)
        e["mediaType"] = "album"
        return e
    }

    /// The album's genres as its songs name them, by name (the spelling the catalog keeps).
    static func albumGenres(_ album: CatalogAlbum, catalog: Catalog) -> [SubsonicElement] {
        album.genreKeys.compactMap { key in
            catalog.genre(folded: key).map { SubsonicElement(["name": .string($0.name)]) }
        }
    }
}
