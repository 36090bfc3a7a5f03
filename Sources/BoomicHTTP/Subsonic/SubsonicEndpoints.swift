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
        SubsonicEndpoint("getNowPlaying", NowPlayingEndpoints.list),
        .notYet("getStarred"),
        .notYet("getStarred2"),
        .notYet("search2"),
        .notYet("search3"),
        // playlists
        SubsonicEndpoint("getPlaylists", PlaylistEndpoints.list),
        SubsonicEndpoint("getPlaylist", PlaylistEndpoints.get),
        SubsonicEndpoint("createPlaylist", PlaylistEndpoints.create),
        SubsonicEndpoint("updatePlaylist", PlaylistEndpoints.update),
        SubsonicEndpoint("deletePlaylist", PlaylistEndpoints.delete),
        // media
        SubsonicEndpoint("stream", MediaEndpoints.stream),
        SubsonicEndpoint("download", MediaEndpoints.download),
        SubsonicEndpoint("getCoverArt", CoverEndpoints.coverArt),
        SubsonicEndpoint("getLyrics", LyricsEndpoints.byArtistAndTitle),
        SubsonicEndpoint("getLyricsBySongId", LyricsEndpoints.bySongID),
        // annotation
        SubsonicEndpoint("star", AnnotationEndpoints.star),
        SubsonicEndpoint("unstar", AnnotationEndpoints.unstar),
        SubsonicEndpoint("setRating", AnnotationEndpoints.setRating),
        SubsonicEndpoint("scrobble", AnnotationEndpoints.scrobble),
        SubsonicEndpoint("getBookmarks", BookmarkEndpoints.list),
        SubsonicEndpoint("createBookmark", BookmarkEndpoints.create),
        SubsonicEndpoint("deleteBookmark", BookmarkEndpoints.delete),
        SubsonicEndpoint("getPlayQueue", PlayQueueEndpoints.get),
        SubsonicEndpoint("savePlayQueue", PlayQueueEndpoints.save),
        // users
        SubsonicEndpoint("getUser", UserEndpoints.user),
        SubsonicEndpoint("getUsers", UserEndpoints.users),
        SubsonicEndpoint("tokenInfo", UserEndpoints.tokenInfo),
    ]
}
