/// What `Catalog.search` finds: one page of each kind.
public struct CatalogSearchResult: Sendable, Equatable {
    public var artists: [CatalogArtist]
    public var albums: [CatalogAlbum]
    public var songs: [Song]
}
