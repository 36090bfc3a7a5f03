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
        SubsonicEndpoint("getIndexes", BrowsingEndpoints.indexes),
        SubsonicEndpoint("getMusicDirectory", BrowsingEndpoints.musicDirectory),
        SubsonicEndpoint("getGenres", BrowsingEndpoints.genres),
        SubsonicEndpoint("getArtists", BrowsingEndpoints.artists),
        SubsonicEndpoint("getArtist", BrowsingEndpoints.artist),
        SubsonicEndpoint("getAlbum", BrowsingEndpoints.album),
        SubsonicEndpoint("getSong", BrowsingEndpoints.song),
        SubsonicEndpoint("getArtistInfo", BrowsingEndpoints.artistInfo),
        SubsonicEndpoint("getArtistInfo2", BrowsingEndpoints.artistInfo2),
        SubsonicEndpoint("getAlbumInfo", BrowsingEndpoints.albumInfo),
        SubsonicEndpoint("getAlbumInfo2", BrowsingEndpoints.albumInfo),
        SubsonicEndpoint("getTopSongs", BrowsingEndpoints.topSongs),
        SubsonicEndpoint("getSimilarSongs", BrowsingEndpoints.similarSongs),
        SubsonicEndpoint("getSimilarSongs2", BrowsingEndpoints.similarSongs2),
        // lists
        SubsonicEndpoint("getAlbumList", ListsEndpoints.albumList),
        SubsonicEndpoint("getAlbumList2", ListsEndpoints.albumList2),
        SubsonicEndpoint("getRandomSongs", ListsEndpoints.randomSongs),
        SubsonicEndpoint("getSongsByGenre", ListsEndpoints.songsByGenre),
        SubsonicEndpoint("getNowPlaying", NowPlayingEndpoints.list),
        SubsonicEndpoint("getStarred", ListsEndpoints.starred),
        SubsonicEndpoint("getStarred2", ListsEndpoints.starred2),
        SubsonicEndpoint("search2", SearchEndpoints.search2),
        SubsonicEndpoint("search3", SearchEndpoints.search3),
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
