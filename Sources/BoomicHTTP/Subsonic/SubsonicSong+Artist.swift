import BoomicCore

extension SubsonicSong {
    /// A catalog artist as Subsonic's `ArtistID3` (`getArtists`, `getArtist`, `search3`), with
    /// OpenSubsonic's additions; also the `artist` of `getIndexes`, which takes the same fields.
    public static func artist(_ artist: CatalogArtist, catalog: Catalog) -> SubsonicElement {
        var e = SubsonicElement()
        e["id"] = .string(artist.id)
        e["name"] = .string(artist.name)
        e["coverArt"] = artist.coverArt == nil ? nil : .string(artist.id)
        e["albumCount"] = .int(artist.albumCount)
        e["starred"] = artist.starred.map { .string(SubsonicTime.iso($0)) }
        e["userRating"] = artist.userRating.map(SubsonicValue.int)
        e["musicBrainzId"] = artist.musicBrainzID.map(SubsonicValue.string)
        if let first = artist.albumIndices.first, let song = catalog.songs(of: catalog.albums[first]).first,
           let sort = song.albumArtistSortName, !sort.isEmpty, sort != artist.name {
            e["sortName"] = .string(sort)
        }
        return e
    }
}
