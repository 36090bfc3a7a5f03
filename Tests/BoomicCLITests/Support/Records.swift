import BoomicTestSupport
import Foundation
import Testing

/// One object of `boomic ls --json` (DESIGN §4 field names). Everything the design allows to be
/// omitted is optional here, so a test fails on wrong values rather than on shape.
struct SongRecord: Decodable, Equatable, Sendable {
    var id: String
    var path: String
    var title, artist: String?
    var artists: [String]?
    var album, albumartist: String?
    var track, tracktotal, disc, disctotal, year: Int?
    var date, genre, composer, comment: String?
    var compilation: Bool?
    var duration: Double?
    var samplerate, bitdepth, channels, bitrate: Int?
    var format: String?
    var tags: [String]?
    var rating, playcount, skipcount: Int?
    var lastplayed: String?
    var bookmark, bookmark_speed: Double?
    var favorite: Bool?
    var art: String?
    var missing: Bool?
    var replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak: Double?
    var mb_trackid, mb_albumid, mb_artistid, mb_albumartistid, mb_releasegroupid: String?
    var start, end: Int?
    var sheet: String?
    var isrc, catalognum: String?

    var isMissing: Bool { missing ?? false }

    static func decode(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [SongRecord] {
        try decodeJSON([SongRecord].self, text, sourceLocation: sourceLocation)
    }
}

/// One object of `boomic history --json`.
struct HistoryRecord: Decodable, Equatable, Sendable {
    var seq: Int
    var id: String
    var time: String
    var kind: String
    var label: String
}

extension ManifestEntry {
    /// Guards the loops over the manifest against passing on an empty or unreadable one.
    static func requireLoaded(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(good.count >= 30 && broken.count >= 4, "cannot read Samples/manifest.json", sourceLocation: sourceLocation)
    }
}
