import BoomicCore

/// A song as the annotation, playlist, bookmark, play-queue and now-playing answers carry it
/// (Subsonic's `Child`), in the few attributes every client reads: id, title, album, artist,
/// duration, cover. It stands in for the browsing endpoints' full mapping (`SubsonicSong`), which
/// replaces it where that mapping is present.
enum AnnotationSongStandIn {
    static func child(_ song: Song) -> SubsonicElement {
        var e = SubsonicElement([
            "id": .string(CatalogID.song(song.id)), "isDir": false,
            "title": .string(song.title ?? String(song.path.split(separator: "/").last ?? "")),
            "album": song.album.map(SubsonicValue.string), "artist": song.artist.map(SubsonicValue.string),
            "duration": song.duration.map { .int(Int($0.rounded())) },
        ])
        if song.art != nil { e["coverArt"] = .string(CatalogID.song(song.id)) }
        e["type"] = "music"
        return e
    }
}
