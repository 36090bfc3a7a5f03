import BoomicCore

/// The library as the page's API writes it: albums, artists and songs in the catalog's terms,
/// with their catalog ids (`al-…`, `ar-…`, `so-…`) and their cover as the art store's hash,
/// which `api/cover/HASH` sends.
enum LibraryRows {
    struct Album: Encodable, Sendable {
        var id: String
        var name: String
        var artist: String
        var artistId: String
        var year: Int?
        var genre: String?
        var songCount: Int
        var duration: Double
        var cover: String?
        var playCount: Int
        var starred: Bool

        init(_ album: CatalogAlbum) {
            id = album.id
            name = album.name
            artist = album.artist
            artistId = album.artistID
            year = album.year
            genre = album.genre
            songCount = album.songCount
            duration = album.duration
            cover = album.coverArt
            playCount = album.playCount
            starred = album.starred != nil
        }
    }

    struct Artist: Encodable, Sendable {
        var id: String
        var name: String
        var albumCount: Int
        var songCount: Int
        var cover: String?

        init(_ artist: CatalogArtist) {
            id = artist.id
            name = artist.name
            albumCount = artist.albumCount
            songCount = artist.songCount
            cover = artist.coverArt
        }
    }

    struct Song: Encodable, Sendable {
        var id: String
        /// The title, else the file's name.
        var title: String
        var artist: String?
        var album: String?
        var albumId: String?
        var track: Int?
        var disc: Int?
        var year: Int?
        var duration: Double?
        /// The file's format (`flac`, `mp3`, …), which tells the page whether a browser plays it.
        var format: String?
        var cover: String?
        var favorite: Bool
        var rating: Int?
        var playCount: Int
        var missing: Bool

        init(_ song: BoomicCore.Song, in catalog: Catalog) {
            id = CatalogID.song(song.id)
            title = song.title ?? song.path.split(separator: "/").last.map(String.init) ?? ""
            artist = song.artist
            album = song.album
            let album = catalog.album(of: song)
            albumId = album?.id
            track = song.track
            disc = song.disc
            year = song.year
            duration = song.duration
            format = song.format
            cover = song.art ?? album?.coverArt
            favorite = song.favorite
            rating = song.rating
            playCount = song.playcount
            missing = song.missing
        }
    }
}
