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
    /// Its albums' positions in `Catalog.albums`, by year (undated last), then name.
    public let albumIndices: [Int]
    public var albumCount: Int { albumIndices.count }
    public let songCount: Int
    /// The cover of its first album that has one.
    public let coverArt: String?
}

/// A genre of the catalog, with how many songs and albums name it.
public struct CatalogGenre: Sendable, Equatable {
    /// The least of the spellings its songs use.
    public let name: String
    /// The folded name.
    public let key: String
    public let songCount: Int
    public let albumCount: Int
}

/// One letter of `getIndexes` / `getArtists`: the artists whose name (without a leading
/// article) starts with it.
public struct CatalogIndex: Sendable, Equatable {
    /// `A` … `Z`, or `#` for names that start with anything else.
    public let letter: String
    public let artists: [CatalogArtist]
}

/// What an id decodes to.
public enum CatalogEntity: Sendable, Equatable {
    case song(Song)
    case album(CatalogAlbum)
    case artist(CatalogArtist)
}
