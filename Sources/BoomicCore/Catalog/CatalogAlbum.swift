/// One album of a `Catalog`: the songs that share an `AlbumKey` (album artist and album title,
/// case- and accent-folded), with what OpenSubsonic's `getAlbum` and album lists show of it.
///
/// Disc folders of one album are one album: the import's guesses give their songs the same
/// album tag (`Foo (CD2)` becomes `Foo`, disc 2), so they share a key. Songs without an album
/// tag form one album per album artist, named `Catalog.unknownAlbum`, as Navidrome files them.
public struct CatalogAlbum: Sendable, Equatable, Identifiable {
    /// The opaque id (`CatalogID.album`).
    public let id: String
    public let key: AlbumKey
    /// The title as its first song (disc order) spells it; `Catalog.unknownAlbum` for songs
    /// without an album tag.
    public let name: String
    /// The album artist as its first song spells it (`Song.effectiveAlbumArtist`), else
    /// `Catalog.unknownArtist`.
    public let artist: String
    /// Where the household's star and rating of the album are kept (`DataBasis.annotations`):
    /// by the MusicBrainz release id the album's id is made from, else by its first song's album
    /// artist and title, as `AnnotationKey.album(of:)` keys a song's album; nil for the songs
    /// without an album tag, which no one can star.
    public let annotationKey: AnnotationKey?
    /// When the album was starred (seconds since 1970), nil when it is not.
    public internal(set) var starred: Double?
    /// The household's rating of the album itself (1–5), nil when unrated; `rating` is its
    /// songs' mean.
    public internal(set) var userRating: Int?
    /// The id of the artist the album is filed under.
    public let artistID: String
    /// The MusicBrainz release id the id was made from, if any.
    public let musicBrainzID: String?
    /// Where its songs are in `Catalog.songs` (disc order).
    public let songRange: Range<Int>
    public var songCount: Int { songRange.count }
    /// Seconds, the sum of its songs'.
    public let duration: Double
    /// The earliest year of its songs (as `ls -a` shows it).
    public let year: Int?
    /// The genre most of its songs name (ties: the first in disc order); nil when none has one.
    public let genre: String?
    /// Every genre its songs name (a song's `Jazz; Fusion` counts as two), folded, sorted.
    public let genreKeys: [String]
    /// The first song (disc order) with a cover: the one whose art stands for the album.
    public let coverSong: SongID?
    /// Its cover's content hash (the cover song's `art`).
    public let coverArt: String?
    /// When it came into the library: the earliest `added` of its songs (seconds since 1970).
    public let created: Double
    /// The sum of its songs' play counts.
    public let playCount: Int
    /// The latest `lastplayed` of its songs.
    public let lastPlayed: Double?
    /// The mean of its rated songs' ratings, nil when none is rated.
    public let rating: Double?
    /// How many of its songs are favourites.
    public let favoriteSongs: Int
    public let isCompilation: Bool
    /// The album's sort key for `alphabeticalByName`: its ALBUMSORT when its first song has
    /// one, else its name, folded.
    let nameSortKey: String
    /// The artist's sort key for `alphabeticalByArtist`: ALBUMARTISTSORT (`Beatles, The`) when
    /// present, else the album artist, folded.
    let artistSortKey: String
}
