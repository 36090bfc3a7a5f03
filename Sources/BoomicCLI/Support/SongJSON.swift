import BoomicCore
import Foundation
import Synchronization

/// The `--json` shape of a song (DESIGN §4): the design's field names, numbers as numbers,
/// missing values omitted, `artist` the display string and `artists` the list, tags with `#`.
struct SongJSON: Encodable {
    var id: String
    var path: String
    var title, artist: String?
    var artists: [String]
    var album, albumartist: String?
    var track, tracktotal, disc, disctotal, year: Int?
    var date, genre, composer: String?
    var compilation: Bool
    var duration: Double?
    var samplerate, bitdepth, channels, bitrate: Int?
    var format: String?
    var tags: [String]
    var rating: Int?
    var playcount: Int
    var favorite: Bool
    var art: String?
    var missing: Bool
    var added: String
    var comment: String?
    var replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak: Double?
    var mb_trackid, mb_albumid, mb_artistid, mb_albumartistid, mb_releasegroupid: String?

    init(_ s: Song) {
        id = s.id.description; path = s.path; title = s.title; artist = s.artist; artists = s.artists
        album = s.album; albumartist = s.albumartist; track = s.track; tracktotal = s.tracktotal
        disc = s.disc; disctotal = s.disctotal; year = s.year; date = s.date; genre = s.genre
        composer = s.composer; compilation = s.compilation; duration = s.duration
        samplerate = s.samplerate; bitdepth = s.bitdepth; channels = s.channels; bitrate = s.bitrate
        format = s.format; tags = s.tags.map { "#" + $0 }; rating = s.rating; playcount = s.playcount
        favorite = s.favorite; art = s.art; missing = s.missing
        added = Formatting.isoDate(s.added); comment = s.comment
        replaygain_track_gain = s.replaygainTrackGain; replaygain_track_peak = s.replaygainTrackPeak
        replaygain_album_gain = s.replaygainAlbumGain; replaygain_album_peak = s.replaygainAlbumPeak
        mb_trackid = s.mbTrackID; mb_albumid = s.mbAlbumID; mb_artistid = s.mbArtistID
        mb_albumartistid = s.mbAlbumArtistID; mb_releasegroupid = s.mbReleaseGroupID
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
    // Made once per process: `ls --json` formats a date per song, and building a formatter
    // each time cost more than the rest of the song's JSON. The Mutex makes them Sendable.
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
