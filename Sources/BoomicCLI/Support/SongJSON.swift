import BoomicCore
import Foundation
import Synchronization

/// The `--json` shape of a song (DESIGN §4): the design's field names, numbers as numbers,
/// missing values omitted, `artist` the display string and `artists` the list, tags with `#`,
/// `bitrate` in bit/s (as beets stores it), and the user's own fields as keys of their own
/// (their names never collide with the others: every known name is refused for a user field).
struct SongJSON: Encodable {
    var id: String
    var path: String
    var title, artist: String?
    var artists: [String]
    var album, albumartist: String?
    var artist_sort, albumartist_sort, album_sort: String?
    var performer, conductor, label, original_date: String?
    var composer_sort, work, movement, grouping, ensemble, location: String?
    var movement_number, movement_total: Int?
    var track, tracktotal, disc, disctotal, year: Int?
    var date, genre, composer: String?
    var compilation: Bool
    var duration: Double?
    var samplerate, bitdepth, channels, bitrate: Int?
    var format: String?
    /// A track of a file: its first sample, the sample after its last, its CUE sheet.
    var start, end: Int?
    var sheet: String?
    var tags: [String]
    var rating: Int?
    var playcount, skipcount: Int
    var lastplayed: String?
    var bookmark, bookmark_speed: Double?
    var favorite: Bool
    var art: String?
    var missing: Bool
    var added: String
    var comment: String?
    var replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak: Double?
    var mb_trackid, mb_albumid, mb_artistid, mb_albumartistid, mb_releasegroupid: String?
    var mb_releasetrackid, mb_workid: String?
    /// MPD clients' stickers by name (`{"playCount": "3"}`).
    var stickers: [String: String]?
    /// The fields whose value Boomic guessed (a `CD2` folder, a file or folder name), by name.
    var guessed: [String]?
    /// Encoded as top-level keys, not under this name.
    var userFields: [String: String]

    init(_ s: Song) {
        id = s.id.description; path = s.path; title = s.title; artist = s.artist; artists = s.artists
        album = s.album; albumartist = s.albumartist
        artist_sort = s.artistSort; albumartist_sort = s.albumartistSort; album_sort = s.albumSort
        performer = s.performer; conductor = s.conductor; label = s.label; original_date = s.originalDate
        composer_sort = s.composerSort; work = s.work; movement = s.movement; grouping = s.grouping
        ensemble = s.ensemble; location = s.location
        movement_number = s.movementNumber; movement_total = s.movementTotal
        track = s.track; tracktotal = s.tracktotal
        disc = s.disc; disctotal = s.disctotal; year = s.year; date = s.date; genre = s.genre
        composer = s.composer; compilation = s.compilation; duration = s.duration
        samplerate = s.samplerate; bitdepth = s.bitdepth; channels = s.channels; bitrate = s.bitrate.map { $0 * 1000 }
        format = s.format; start = s.start; end = s.end; sheet = s.sheet; tags = s.tags.map { "#" + $0 }; rating = s.rating; playcount = s.playcount
        skipcount = s.skipcount; lastplayed = s.lastplayed.map(Formatting.isoDate)
        bookmark = s.bookmark; bookmark_speed = s.bookmarkSpeed
        favorite = s.favorite; art = s.art; missing = s.missing
        added = Formatting.isoDate(s.added); comment = s.comment
        replaygain_track_gain = s.replaygainTrackGain; replaygain_track_peak = s.replaygainTrackPeak
        replaygain_album_gain = s.replaygainAlbumGain; replaygain_album_peak = s.replaygainAlbumPeak
        mb_trackid = s.mbTrackID; mb_albumid = s.mbAlbumID; mb_artistid = s.mbArtistID
        mb_albumartistid = s.mbAlbumArtistID; mb_releasegroupid = s.mbReleaseGroupID
        mb_releasetrackid = s.mbReleaseTrackID; mb_workid = s.mbWorkID
        if !s.stickers.isEmpty { stickers = Dictionary(s.stickerPairs) { _, last in last } }
        if !s.guessed.isEmpty { guessed = s.guessed }
        userFields = s.userFieldMap
    }

    private enum CodingKeys: String, CodingKey {
        case id, path, title, artist, artists, album, albumartist, artist_sort, albumartist_sort, album_sort
        case performer, conductor, label, original_date
        case composer_sort, work, movement, movement_number, movement_total, grouping, ensemble, location
        case track, tracktotal, disc, disctotal, year
        case date, genre, composer, compilation, duration, samplerate, bitdepth, channels, bitrate, format
        case start, end, sheet
        case tags, rating, playcount, favorite, art, missing, added, comment
        case skipcount, lastplayed, bookmark, bookmark_speed
        case replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak
        case mb_trackid, mb_albumid, mb_artistid, mb_albumartistid, mb_releasegroupid, mb_releasetrackid, mb_workid
        case stickers, guessed
    }

    private struct UserKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(path, forKey: .path)
        try c.encodeIfPresent(title, forKey: .title); try c.encodeIfPresent(artist, forKey: .artist)
        try c.encode(artists, forKey: .artists); try c.encodeIfPresent(album, forKey: .album)
        try c.encodeIfPresent(albumartist, forKey: .albumartist)
        try c.encodeIfPresent(artist_sort, forKey: .artist_sort); try c.encodeIfPresent(albumartist_sort, forKey: .albumartist_sort)
        try c.encodeIfPresent(album_sort, forKey: .album_sort)
        try c.encodeIfPresent(performer, forKey: .performer); try c.encodeIfPresent(conductor, forKey: .conductor)
        try c.encodeIfPresent(label, forKey: .label); try c.encodeIfPresent(original_date, forKey: .original_date)
        try c.encodeIfPresent(composer_sort, forKey: .composer_sort); try c.encodeIfPresent(work, forKey: .work)
        try c.encodeIfPresent(movement, forKey: .movement); try c.encodeIfPresent(movement_number, forKey: .movement_number)
        try c.encodeIfPresent(movement_total, forKey: .movement_total); try c.encodeIfPresent(grouping, forKey: .grouping)
        try c.encodeIfPresent(ensemble, forKey: .ensemble); try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(track, forKey: .track)
        try c.encodeIfPresent(tracktotal, forKey: .tracktotal); try c.encodeIfPresent(disc, forKey: .disc)
        try c.encodeIfPresent(disctotal, forKey: .disctotal); try c.encodeIfPresent(year, forKey: .year)
        try c.encodeIfPresent(date, forKey: .date); try c.encodeIfPresent(genre, forKey: .genre)
        try c.encodeIfPresent(composer, forKey: .composer); try c.encode(compilation, forKey: .compilation)
        try c.encodeIfPresent(duration, forKey: .duration); try c.encodeIfPresent(samplerate, forKey: .samplerate)
        try c.encodeIfPresent(bitdepth, forKey: .bitdepth); try c.encodeIfPresent(channels, forKey: .channels)
        try c.encodeIfPresent(bitrate, forKey: .bitrate); try c.encodeIfPresent(format, forKey: .format)
        try c.encodeIfPresent(start, forKey: .start); try c.encodeIfPresent(end, forKey: .end)
        try c.encodeIfPresent(sheet, forKey: .sheet)
        try c.encode(tags, forKey: .tags); try c.encodeIfPresent(rating, forKey: .rating)
        try c.encode(playcount, forKey: .playcount); try c.encode(favorite, forKey: .favorite)
        try c.encode(skipcount, forKey: .skipcount); try c.encodeIfPresent(lastplayed, forKey: .lastplayed)
        try c.encodeIfPresent(bookmark, forKey: .bookmark); try c.encodeIfPresent(bookmark_speed, forKey: .bookmark_speed)
        try c.encodeIfPresent(art, forKey: .art); try c.encode(missing, forKey: .missing)
        try c.encode(added, forKey: .added); try c.encodeIfPresent(comment, forKey: .comment)
        try c.encodeIfPresent(replaygain_track_gain, forKey: .replaygain_track_gain)
        try c.encodeIfPresent(replaygain_track_peak, forKey: .replaygain_track_peak)
        try c.encodeIfPresent(replaygain_album_gain, forKey: .replaygain_album_gain)
        try c.encodeIfPresent(replaygain_album_peak, forKey: .replaygain_album_peak)
        try c.encodeIfPresent(mb_trackid, forKey: .mb_trackid); try c.encodeIfPresent(mb_albumid, forKey: .mb_albumid)
        try c.encodeIfPresent(mb_artistid, forKey: .mb_artistid)
        try c.encodeIfPresent(mb_albumartistid, forKey: .mb_albumartistid)
        try c.encodeIfPresent(mb_releasegroupid, forKey: .mb_releasegroupid)
        try c.encodeIfPresent(mb_releasetrackid, forKey: .mb_releasetrackid); try c.encodeIfPresent(mb_workid, forKey: .mb_workid)
        try c.encodeIfPresent(stickers, forKey: .stickers)
        try c.encodeIfPresent(guessed, forKey: .guessed)
        guard !userFields.isEmpty else { return }
        var u = encoder.container(keyedBy: UserKey.self)
        for (name, value) in userFields { try u.encode(value, forKey: UserKey(stringValue: name)) }
    }
}

enum JSONOut {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// Prints one JSON array, one element per line, so large outputs stream and diff well.
    static func printArray<T: Encodable>(_ items: some Sequence<T>) throws {
        let enc = encoder()
        var first = true
        Out.line("[")
        var pending: String?
        for item in items {
            if let p = pending { Out.line(p + ",") }
            pending = String(decoding: try enc.encode(item), as: UTF8.self)
            first = false
        }
        if let p = pending { Out.line(p) }
        _ = first
        Out.line("]")
    }
}

enum Formatting {
    /// `1 song`, `3 songs`: a count with its noun, for the messages that report one.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    // Made once per process: `ls --json` formats a date per song, and building a formatter
    // each time costs more than the rest of the song's JSON. The Mutex makes them Sendable.
    private static let iso = Mutex({ () -> ISO8601DateFormatter in
        let f = ISO8601DateFormatter()
        f.timeZone = .current
        f.formatOptions = [.withInternetDateTime]
        return f
    }())
    private static let local = Mutex({ () -> DateFormatter in
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        f.timeZone = .current
        return f
    }())

    static func isoDate(_ t: Double) -> String {
        iso.withLock { $0.string(from: Date(timeIntervalSince1970: t)) }
    }

    static func localTime(_ t: Double) -> String {
        local.withLock { $0.string(from: Date(timeIntervalSince1970: t)) }
    }

    static func duration(_ d: Double?) -> String {
        guard let d else { return "" }
        let s = Int(d.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
