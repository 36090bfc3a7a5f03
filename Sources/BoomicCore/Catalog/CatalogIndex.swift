/// One letter of `getIndexes` / `getArtists`: the artists whose name (without a leading
/// article) starts with it.
public struct CatalogIndex: Sendable, Equatable {
    /// `A` … `Z`, or `#` for names that start with anything else.
    public let letter: String
    public let artists: [CatalogArtist]
}
