/// Every endpoint of `/rest` Boomic knows, in one table: answering a new one is one line here
/// (its name and its handler, a function of `SubsonicCall` in a file of `Endpoints/`), which
/// replaces its `notYet` line.
public enum SubsonicEndpoints {
    public static let all: [SubsonicEndpoint] = [
        // system
        SubsonicEndpoint("ping") { _ in .empty },
        SubsonicEndpoint("getLicense", SystemEndpoints.license),
        SubsonicEndpoint("getOpenSubsonicExtensions", open: true, SystemEndpoints.extensions),
        SubsonicEndpoint("getScanStatus", SystemEndpoints.scanStatus),
        SubsonicEndpoint("startScan", SystemEndpoints.startScan),
        // browsing
        SubsonicEndpoint("getMusicFolders", SystemEndpoints.musicFolders),
        .notYet("getIndexes"),
        .notYet("getMusicDirectory"),
        .notYet("getGenres"),
        .notYet("getArtists"),
        .notYet("getArtist"),
        .notYet("getAlbum"),
        .notYet("getSong"),
        .notYet("getArtistInfo"),
        .notYet("getArtistInfo2"),
        .notYet("getAlbumInfo"),
        .notYet("getAlbumInfo2"),
        .notYet("getTopSongs"),
        .notYet("getSimilarSongs"),
        .notYet("getSimilarSongs2"),
        // lists
        .notYet("getAlbumList"),
        .notYet("getAlbumList2"),
        .notYet("getRandomSongs"),
        .notYet("getSongsByGenre"),
        .notYet("getNowPlaying"),
        .notYet("getStarred"),
        .notYet("getStarred2"),
        .notYet("search2"),
        .notYet("search3"),
        // playlists
        .notYet("getPlaylists"),
        .notYet("getPlaylist"),
        .notYet("createPlaylist"),
        .notYet("updatePlaylist"),
        .notYet("deletePlaylist"),
        // media
        .notYet("stream"),
        .notYet("download"),
        .notYet("getCoverArt"),
        .notYet("getLyrics"),
        .notYet("getLyricsBySongId"),
        // annotation
        .notYet("star"),
        .notYet("unstar"),
        .notYet("setRating"),
        .notYet("scrobble"),
        .notYet("getBookmarks"),
        .notYet("createBookmark"),
        .notYet("deleteBookmark"),
        .notYet("getPlayQueue"),
        .notYet("savePlayQueue"),
        // users
        SubsonicEndpoint("getUser", UserEndpoints.user),
        SubsonicEndpoint("getUsers", UserEndpoints.users),
        SubsonicEndpoint("tokenInfo", UserEndpoints.tokenInfo),
    ]
}
