/// One artist of a `Catalog`: the album artist (or, when a song has none, its first artist) that
/// albums are filed under, as Navidrome lists artists. A song's other artists and featured
/// guests are searchable and have top songs (`Catalog.topSongs`), but are no artist of the list.
public struct CatalogArtist: Sendable, Equatable, Identifiable {
    /// The opaque id (`CatalogID.artist`).
    public let id: String
    /// The folded name (`AlbumKey.artist`).
    public let key: String
    /// The least of the spellings its albums use (as `ls --artists` picks one), else
    /// `Catalog.unknownArtist`.
    public let name: String
    public let musicBrainzID: String?
    /// Where the household's star and rating of the artist are kept (`DataBasis.annotations`):
    /// by the MusicBrainz artist id the artist's id is made from, else by the folded name.
    public let annotationKey: AnnotationKey
    /// When the artist was starred (seconds since 1970), nil when they are not.
    public internal(set) var starred: Double?
    /// The household's rating of the artist (1–5), nil when unrated.
    public internal(set) var userRating: Int?
    /// Its albums' positions in `Catalog.albums`, by year (undated last), then name.
    public let albumIndices: [Int]
    public var albumCount: Int { albumIndices.count }
    public let songCount: Int
    /// The cover of its first album that has one.
    public let coverArt: String?
}
