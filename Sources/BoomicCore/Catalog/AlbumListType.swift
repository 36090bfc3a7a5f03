/// Which albums `getAlbumList2` lists, and in what order: one case per Subsonic `type`.
public enum AlbumListType: Sendable, Equatable {
    /// In an order drawn from `seed` (the caller passes it, so a test or a page can be repeated).
    case random(seed: UInt64)
    /// By `CatalogAlbum.created`, latest first.
    case newest
    /// Albums played at least once, by play count, most first.
    case frequent
    /// Albums played at least once, by when last played, latest first.
    case recent
    /// Albums the `starred` predicate of `Catalog.albumList` holds for, by name.
    case starred
    /// By title (ALBUMSORT when tagged), folded.
    case alphabeticalByName
    /// By album artist (ALBUMARTISTSORT when tagged), folded, then title.
    case alphabeticalByArtist
    /// Dated albums from `from` to `to`, both included; earliest first, or latest first when
    /// `from > to`, as Subsonic's API says; within a year, by name.
    case byYear(from: Int, to: Int)
    /// Albums with a song of this genre (compared folded), by name.
    case byGenre(String)
    /// Albums with a rated song, by the mean rating of their rated songs, highest first.
    case highest

    /// The case for Subsonic's `type` parameter and the parameters some types need; nil for an
    /// unknown type or a missing `fromYear`, `toYear` or `genre`.
    public init?(subsonicType type: String, fromYear: Int? = nil, toYear: Int? = nil, genre: String? = nil, seed: UInt64 = 0) {
        switch type {
        case "random": self = .random(seed: seed)
        case "newest": self = .newest
        case "frequent": self = .frequent
        case "recent": self = .recent
        case "starred": self = .starred
        case "alphabeticalByName": self = .alphabeticalByName
        case "alphabeticalByArtist": self = .alphabeticalByArtist
        case "highest": self = .highest
        case "byYear":
            guard let fromYear, let toYear else { return nil }
            self = .byYear(from: fromYear, to: toYear)
        case "byGenre":
            guard let genre else { return nil }
            self = .byGenre(genre)
        default: return nil
        }
    }
}
