/// The annotation keys of the catalog's albums and artists: where a star or a rating given to
/// an album's or an artist's opaque id is kept (`AnnotationKey`), and where it is read back from.
extension Catalog {
    /// An album's key: its MusicBrainz release id when the catalog gives it one, else the album
    /// artist and title its songs name (`AnnotationKey.album(of:)`); nil for the album of songs
    /// that name no album (Subsonic's "[Unknown Album]").
    public func annotationKey(of album: CatalogAlbum) -> AnnotationKey? {
        guard let first = songs(of: album).first, let byName = AnnotationKey.album(of: first) else { return nil }
        guard let mb = album.musicBrainzID else { return byName }
        return .album(musicBrainzID: mb, albumArtist: first.effectiveAlbumArtist, title: first.album ?? album.name)
    }

    /// An artist's key: their MusicBrainz artist id when the catalog knows it, else their name.
    public func annotationKey(of artist: CatalogArtist) -> AnnotationKey {
        .artist(musicBrainzID: artist.musicBrainzID, name: artist.name)
    }
}
