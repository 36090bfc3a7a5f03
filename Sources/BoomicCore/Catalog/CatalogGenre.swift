/// A genre of the catalog, with how many songs and albums name it.
public struct CatalogGenre: Sendable, Equatable {
    /// The least of the spellings its songs use.
    public let name: String
    /// The folded name.
    public let key: String
    public let songCount: Int
    public let albumCount: Int
}
