import Foundation

/// One entry of `Samples/manifest.json` (see `Samples/README.md`): what each sample file holds,
/// so that tests compare what Boomic reads against what the files were made with, in one
/// decoding for every target.
public struct ManifestEntry: Decodable, Sendable, CustomStringConvertible {
    public var path: String
    public var format: String
    public var broken: Bool?
    public var reason: String?
    public var tag_format: String?
    public var title: String?
    public var artists: [String]?
    public var album, albumartist, genre, composer, date: String?
    public var track, tracktotal, disc, disctotal, year: Int?
    public var compilation: Bool?
    public var replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak: Double?
    public var mb_trackid, mb_albumid, mb_artistid, mb_albumartistid, mb_releasegroupid: String?
    public var cover: String?
    public var cover_path: String?
    public var samplerate, channels, bitdepth, duration_ms: Int?

    public var isBroken: Bool { broken ?? false }
    public var description: String { path }

    /// Every entry; empty when the manifest cannot be read (tests guard their loops on a count).
    public static let all: [ManifestEntry] = {
        let data = FileManager.default.contents(atPath: Repo.samples + "/manifest.json") ?? Data()
        return (try? JSONDecoder().decode([ManifestEntry].self, from: data)) ?? []
    }()

    /// The untidy layouts in `Samples/Untidy/` (a two-disc album in disc folders, an untagged
    /// rip): what Boomic guesses for them changes the library an import makes, so a sandbox
    /// leaves them out unless asked (`Sandbox(untidy:)`).
    public var isUntidy: Bool { path.hasPrefix(Self.untidyFolder + "/") }
    public static let untidyFolder = "Untidy"

    /// The good files but the untidy ones: what a sandbox imports.
    public static var good: [ManifestEntry] { all.filter { !$0.isBroken && !$0.isUntidy } }
    public static var untidy: [ManifestEntry] { all.filter(\.isUntidy) }
    public static var broken: [ManifestEntry] { all.filter(\.isBroken) }
}
