/// The library as OpenSubsonic's browsing, list and search endpoints see it: artists, albums and
/// songs with opaque ids, grouped once from a basis and then answered from in O(result) or
/// O(n log n) of the albums at worst.
///
/// Pure: a value built from a `DataBasis`, which the caller builds once per basis and keeps
/// (the front caches it beside the basis it came from). Only present songs are in it: a song the
/// last rescan found missing cannot be streamed, so no client is shown it.
///
/// - An **album** is the songs sharing an `AlbumKey` (`CatalogAlbum`).
/// - An **artist** is an album artist, falling back to a song's first artist when it has none,
///   as Navidrome lists artists: every album is filed under exactly one (`CatalogArtist`).
/// - **Ids** are `CatalogID`'s.
///
/// `Documentation/catalog.md` states the rules for users.
///
/// Complexity: building is O(n log n) in the songs (grouping, one sort per album, a few sorts of
/// the albums); the search index is built on the first search with text, once.
public struct Catalog: Sendable {
    /// The name of the album of songs without an album tag, as Navidrome names it.
    public static let unknownAlbum = "[Unknown Album]"
    /// The name of the artist of songs without any artist, as Navidrome names it.
    public static let unknownArtist = "[Unknown Artist]"

    /// The basis the catalog was built from.
    public internal(set) var basis: DataBasis
    /// Every album, in `AlbumKey` order (folded album artist, then folded title): the catalog's
    /// canonical order, which paging through everything follows.
    public internal(set) var albums: [CatalogAlbum]
    /// Every artist, by folded name.
    public internal(set) var artists: [CatalogArtist]
    /// Every present song, album after album in `albums` order, each album's in disc order
    /// (`CatalogAlbum.songRange` is its part).
    public internal(set) var songs: [Song]
    /// Every genre the songs name, by folded name.
    public internal(set) var genres: [CatalogGenre]
    /// When each favourite song was starred (seconds since 1970), as the log tells it
    /// (`AnnotationFlow.starredDates`): a song's star is a field without a date of its own, so
    /// the front that builds the catalog fills this in; a favourite missing from it has no known
    /// date.
    public var songStarred: [SongID: Double] = [:]

    let albumPositions: [AlbumKey: Int]
    let albumByHash: [UInt64: Int]
    let artistByHash: [UInt64: Int]
    let artistPositions: [String: Int]
    /// Folded genre → positions in `songs` / `albums`, ascending.
    var genreSongs: [String: [Int]]
    var genreAlbums: [String: [Int]]
    var orders: AlbumOrders
    var searchIndex: CatalogSearchIndex.Cache

    /// The albums in the orders the album lists use, as positions in `albums`.
    struct AlbumOrders: Sendable, Equatable {
        var byName: [Int] = []
        var byArtist: [Int] = []
        var newest: [Int] = []
        /// Only albums played at least once, most plays first.
        var frequent: [Int] = []
        /// Only albums played at least once, latest first.
        var recent: [Int] = []
        /// Only albums with a rated song, highest mean first.
        var highest: [Int] = []
        /// Only dated albums, earliest first.
        var byYear: [Int] = []
    }

    // MARK: Looking up

    /// A song's album: every song of the catalog is in exactly one.
    public func album(of song: Song) -> CatalogAlbum? {
        albumPositions[Self.albumKey(of: song)].map { albums[$0] }
    }

    /// The songs of an album, in disc order (disc, then track, songs without either last, then
    /// path).
    public func songs(of album: CatalogAlbum) -> ArraySlice<Song> { songs[album.songRange] }

    /// The artist an album is filed under.
    public func artist(of album: CatalogAlbum) -> CatalogArtist {
        artists[artistPositions[album.key.artist]!]
    }

    /// An artist's albums, by year (undated last), then name.
    public func albums(of artist: CatalogArtist) -> [CatalogAlbum] { artist.albumIndices.map { albums[$0] } }

    /// The artist filed under a name, compared folded (`Björk` finds `bjork`).
    public func artist(named name: String) -> CatalogArtist? {
        artistPositions[Fold.key(name)].map { artists[$0] }
    }

    /// The song, album or artist an id names, nil for an id of nothing in this catalog (an id of
    /// another library, a song that is missing) or for text that is no id at all.
    public func entity(forID id: String) -> CatalogEntity? {
        switch CatalogID.parse(id) {
        case .song(let sid)?:
            guard let s = basis[sid], !s.missing else { return nil }
            return .song(s)
        case .album(let h)?: return albumByHash[h].map { .album(albums[$0]) }
        case .artist(let h)?: return artistByHash[h].map { .artist(artists[$0]) }
        case nil: return nil
        }
    }

    public func song(id: String) -> Song? {
        if case .song(let s)? = entity(forID: id) { return s }
        return nil
    }

    public func album(id: String) -> CatalogAlbum? {
        if case .album(let a)? = entity(forID: id) { return a }
        return nil
    }

    public func artist(id: String) -> CatalogArtist? {
        if case .artist(let a)? = entity(forID: id) { return a }
        return nil
    }

    /// A genre by name, compared folded.
    public func genre(named name: String) -> CatalogGenre? { genre(folded: Fold.key(name)) }

    /// A genre by its folded name (`CatalogAlbum.genreKeys`), by a binary search of `genres`.
    public func genre(folded key: String) -> CatalogGenre? {
        var lo = 0, hi = genres.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if genres[mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < genres.count && genres[lo].key == key ? genres[lo] : nil
    }

    /// The key of the album a song is in: its `AlbumKey`, or for a song without an album tag
    /// its album artist's folded name with an empty title (no `AlbumKey` of a tagged album has one).
    static func albumKey(of song: Song) -> AlbumKey {
        AlbumKey(song) ?? AlbumKey(artist: Fold.key(song.effectiveAlbumArtist ?? ""), title: "")
    }
}
