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
    var rating, playcount: Int?
    var favorite: Bool?
    var art: String?
    var missing: Bool?
    var replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak: Double?
    var mb_trackid, mb_albumid, mb_artistid, mb_albumartistid, mb_releasegroupid: String?

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

/// One entry of `Samples/manifest.json` (see `Samples/README.md`).
struct ManifestEntry: Decodable, Sendable, CustomStringConvertible {
    var path: String
    var format: String
    var broken: Bool?
    var reason: String?
    var title: String?
    var artists: [String]?
    var album, albumartist, genre, composer, date: String?
    var track, tracktotal, disc, disctotal, year: Int?
    var compilation: Bool?
    var replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak: Double?
    var mb_trackid, mb_albumid, mb_artistid, mb_albumartistid, mb_releasegroupid: String?
    var cover: String?
    var cover_path: String?
    var samplerate, channels, bitdepth, duration_ms: Int?

    var isBroken: Bool { broken ?? false }
    var description: String { path }

    static let all: [ManifestEntry] = {
        let data = FileManager.default.contents(atPath: Repo.samples + "/manifest.json") ?? Data()
        return (try? JSONDecoder().decode([ManifestEntry].self, from: data)) ?? []
    }()
    /// Guards the loops over the manifest against passing on an empty or unreadable one.
    static func requireLoaded(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(good.count >= 30 && broken.count >= 4, "cannot read Samples/manifest.json", sourceLocation: sourceLocation)
    }

    static var good: [ManifestEntry] { all.filter { !$0.isBroken } }
    static var broken: [ManifestEntry] { all.filter(\.isBroken) }
}
