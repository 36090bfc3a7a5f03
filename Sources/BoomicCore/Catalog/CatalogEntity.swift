/// What an id decodes to.
public enum CatalogEntity: Sendable, Equatable {
    case song(Song)
    case album(CatalogAlbum)
    case artist(CatalogArtist)
}
