import BoomicCore

/// The one mapping from Boomic's values to Subsonic's: a song to a `Child`, a catalog album to an
/// `AlbumID3` (or to a directory `Child`), an artist to an `ArtistID3`, with OpenSubsonic's
/// additions. Every endpoint that shows a song, an album or an artist builds it here, so they
/// all show the same fields.
///
/// - Ids are the catalog's (`CatalogID`): `so-…`, `al-…`, `ar-…`.
/// - `coverArt` is the id of the entity whose picture stands for it: the song's own id when the
///   song has a picture (`Song.art`), else its album's; an album's id when the album has a cover
///   (`CatalogAlbum.coverArt`); an artist's id when one of their albums has one. So
///   `getCoverArt` resolves it with `Catalog.entity(forID:)`; it is left out when there is none.
/// - `path` is never the file's: Subsonic calls it informational, and a client may show it. It
///   is made up as Navidrome makes it, `Album Artist/Album/DD-TT - Title.suffix` (disc and
///   track only when known, a `/` in a name as `_`).
/// - Times (`created`, `played`, `starred`) are ISO 8601 in UTC; `duration` is whole seconds.
/// - A song's `starred` is when the transaction that set its favourite was committed
///   (`Catalog.songStarred`), else, when the log does not tell, when it came into the library.
public enum SubsonicSong {
    /// A song as Subsonic's `Child` (`song`, `entry`, `child` elements). Each member is added
    /// once, in this order (`SubsonicElement.add`).
    public static func child(_ song: Song, catalog: Catalog) -> SubsonicElement {
        let album = catalog.album(of: song)
        let suffix = self.suffix(of: song)
        let artistIDs = song.artists.map { catalog.artist(named: $0)?.id }
        var e = SubsonicElement(capacity: 40)
        e.add("id", .string(CatalogID.song(song.id)))
        e.add("parent", album.map { .string($0.id) })
        e.add("isDir", false)
        e.add("title", .string(song.title ?? fileName(song.path)))
        e.add("album", album.map { .string($0.name) } ?? song.album.map(SubsonicValue.string))
        e.add("artist", song.artist.map(SubsonicValue.string))
        e.add("track", song.track.map(SubsonicValue.int))
        e.add("year", song.year.map(SubsonicValue.int))
        e.add("genre", song.genre.map(SubsonicValue.string))
        e.add("coverArt", coverArt(of: song, album: album).map(SubsonicValue.string))
        e.add("size", .int(song.size))
        e.add("contentType", .string(contentType(ofSuffix: suffix)))
        e.add("suffix", .string(suffix))
        e.add("duration", song.duration.map { .int(seconds($0)) })
        e.add("bitRate", song.bitrate.map(SubsonicValue.int))
        e.add("path", .string(path(of: song, album: album, suffix: suffix)))
        e.add("playCount", .int(song.playcount))
        e.add("discNumber", song.disc.map(SubsonicValue.int))
        e.add("created", .string(SubsonicTime.iso(song.added)))
        e.add("albumId", album.map { .string($0.id) })
        e.add("artistId", artistIDs.first.flatMap { $0 }.map(SubsonicValue.string))
        e.add("type", "music")
        e.add("mediaType", "song")
        e.add("userRating", song.rating.map(SubsonicValue.int))
        e.add("starred", song.favorite ? .string(SubsonicTime.iso(catalog.songStarred[song.id] ?? song.added)) : nil)
        e.add("played", song.lastplayed.map { .string(SubsonicTime.iso($0)) })
        e.add("comment", song.comment.map(SubsonicValue.string))
        e.add("musicBrainzId", song.mbTrackID.map(SubsonicValue.string))
        e.add("genres", .elements(genres(of: song.genre)))
        e.add("artists", .elements(zip(song.artists, artistIDs).map { reference(name: $0, id: $1) }))
        e.add("displayArtist", song.artist.map(SubsonicValue.string))
        e.add("albumArtists", .elements(album.map { [reference(name: $0.artist, id: $0.artistID)] } ?? []))
        e.add("displayAlbumArtist", album.map { .string($0.artist) })
        e.add("replayGain", .element(replayGain(of: song)))
        e.add("channelCount", song.channels.map(SubsonicValue.int))
        e.add("samplingRate", song.samplerate.map(SubsonicValue.int))
        e.add("bitDepth", song.bitdepth.map(SubsonicValue.int))
        return e
    }

    /// Songs in order, each as `child`.
    public static func children(_ songs: some Sequence<Song>, catalog: Catalog) -> [SubsonicElement] {
        songs.map { child($0, catalog: catalog) }
    }

    /// A whole number of seconds, rounded to the nearest.
    static func seconds(_ duration: Double) -> Int {
        duration.isFinite && duration > 0 ? Int(duration.rounded()) : 0
    }

    /// The file's format as a suffix: the scanned format (`flac`, `mp3`, …), else the extension.
    static func suffix(of song: Song) -> String {
        if let f = song.format, !f.isEmpty { return f.lowercased() }
        let name = fileName(song.path)
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The MIME type of a suffix; `application/octet-stream` for one not known.
    static func contentType(ofSuffix suffix: String) -> String {
        switch suffix {
        case "flac": "audio/flac"
        case "mp3": "audio/mpeg"
        case "m4a", "mp4", "m4b", "aac", "alac": "audio/mp4"
        case "ogg", "oga", "spx": "audio/ogg"
        case "opus": "audio/ogg"
        case "wav": "audio/wav"
        case "aif", "aiff": "audio/aiff"
        case "wv": "audio/x-wavpack"
        case "ape": "audio/x-ape"
        case "mpc": "audio/x-musepack"
        case "tta": "audio/x-tta"
        case "wma": "audio/x-ms-wma"
        case "dsf": "audio/x-dsf"
        default: "application/octet-stream"
        }
    }

    /// The made-up path: `Album Artist/Album/DD-TT - Title.suffix`.
    static func path(of song: Song, album: CatalogAlbum?, suffix: String) -> String {
        var name = ""
        if let d = song.disc, d != 0 { name += twoDigits(d) + "-" }
        if let t = song.track, t != 0 { name += twoDigits(t) + " - " }
        name += component(song.title ?? "")
        let artist = component(album?.artist ?? song.effectiveAlbumArtist ?? Catalog.unknownArtist)
        let title = component(album?.name ?? song.album ?? Catalog.unknownAlbum)
        return artist + "/" + title + "/" + name + (suffix.isEmpty ? "" : "." + suffix)
    }

    /// A name as one component of the made-up path: no `/`, and never `.` or `..`. A name
    /// without a `/` (nearly every one) is its own component: Foundation's replacing, which
    /// goes through `NSString`, is left to the others (it was a fifth of a 500-song answer).
    static func component(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "/")) else { return name == "." || name == ".." ? "_" : name }
        return name.replacingOccurrences(of: "/", with: "_")
    }

    static func twoDigits(_ n: Int) -> String { n >= 0 && n < 10 ? "0\(n)" : String(n) }

    /// The last component of a path (a song without a title shows its file's name).
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// A song's picture: its own when it has one, else its album's.
    static func coverArt(of song: Song, album: CatalogAlbum?) -> String? {
        if song.art != nil { return CatalogID.song(song.id) }
        return album.flatMap { $0.coverArt == nil ? nil : $0.id }
    }

    /// OpenSubsonic's `genres`: each genre a genre text names (`Jazz; Fusion` names two).
    static func genres(of text: String?) -> [SubsonicElement] {
        guard let text else { return [] }
        var out: [SubsonicElement] = []
        SongField.forEachJoinedValue(text) { out.append(SubsonicElement(["name": .string($0)])) }
        return out
    }

    /// An `ArtistID3` reference: a name and, when the catalog lists the artist, an id. A song's
    /// guest artist that no album is filed under has a name only.
    static func reference(name: String, id: String?) -> SubsonicElement {
        var e = SubsonicElement()
        e["id"] = id.map(SubsonicValue.string)
        e["name"] = .string(name)
        return e
    }

    static func replayGain(of song: Song) -> SubsonicElement {
        var e = SubsonicElement()
        e["trackGain"] = song.replaygainTrackGain.map(SubsonicValue.double)
        e["albumGain"] = song.replaygainAlbumGain.map(SubsonicValue.double)
        e["trackPeak"] = song.replaygainTrackPeak.map(SubsonicValue.double)
        e["albumPeak"] = song.replaygainAlbumPeak.map(SubsonicValue.double)
        return e
    }
}
