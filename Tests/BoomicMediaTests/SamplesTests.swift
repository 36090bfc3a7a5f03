import BoomicCore
import BoomicMedia
import BoomicTestSupport
import Foundation
import Glibc
import Testing

/// Scans the whole Samples/ tree once for all tests in this suite.
final class SamplesScan: Sendable {
    let walk: Walk
    let facts: [String: FileFacts]
    let failures: [String: MediaError]
    let art: ArtStore
    let artDir: TempDir

    static let shared = SamplesScan()

    init() {
        artDir = TempDir.forProcess("boomic-samples-art")
        art = try! ArtStore(directory: artDir.file("art"), musicFolders: [Repo.samples])
        walk = MediaScanner.walk([Repo.samples])
        let result = MediaScanner.readAll(walk.files, art: art)
        facts = Dictionary(uniqueKeysWithValues: result.facts.map { ($0.path, $0) })
        failures = Dictionary(uniqueKeysWithValues: result.failures.map { ($0.path, $0) })
    }

    func path(_ entry: ManifestEntry) -> String { Repo.samples + "/" + entry.path }
}

@Suite(.enabled(if: !ManifestEntry.all.isEmpty, "Samples/manifest.json is missing"))
struct SamplesTests {
    let scan = SamplesScan.shared

    @Test func walkFindsExactlyTheManifestFiles() throws {
        #expect(scan.walk.failures.isEmpty)
        // The CUE image is one file of three songs, outside the per-file manifest.
        let image = Repo.samples + "/" + Repo.cueImageFolder + "/"
        let found = Set(scan.walk.files.map(\.path).filter { !$0.hasPrefix(image) })
        let expected = Set(ManifestEntry.all.map(scan.path))
        #expect(found == expected)
        #expect(scan.walk.files.contains { $0.path.hasPrefix(image) && $0.path.hasSuffix(".flac") })
        #expect(scan.walk.files.count == Set(scan.walk.files.map(\.path)).count, "no file listed twice")
        for stat in scan.walk.files {
            let st = try #require(statOf(stat.path))
            #expect(stat.size == Int(st.st_size))
            #expect(stat.mtime == Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec))
        }
    }

    @Test(arguments: ManifestEntry.all.filter { $0.broken == true }.map(\.path))
    func brokenFileFailsWithOneLineReason(_ relative: String) throws {
        let path = Repo.samples + "/" + relative
        #expect(scan.facts[path] == nil)
        let error = try #require(scan.failures[path])
        let text = try #require(error.errorDescription)
        #expect(text.hasPrefix(path + ": "))
        #expect(!error.reason.isEmpty)
        #expect(!text.contains("\n"))
    }

    /// An MP3 lasts what the reference decoder plays of it (`mpg123`, gapless, as Boomic's
    /// player and MPD play it): TagLib counts the encoder's delay and padding in too (2.038 s of
    /// a song of 2.000), so a client's list and its `status` disagreed.
    @Test(arguments: ManifestEntry.all.filter { $0.broken != true && $0.format == "mp3" }.map(\.path))
    func anMP3LastsWhatTheReferenceDecoderPlays(_ relative: String) throws {
        let path = Repo.samples + "/" + relative
        let f = try #require(scan.facts[path])
        let pcm = try toolOutput(["mpg123", "-q", "-s", path])  // 16-bit, the file's channels
        let channels = try #require(f.channels), rate = try #require(f.samplerate)
        let played = Double(pcm.count / (2 * channels)) / Double(rate)
        let duration = try #require(f.duration)
        #expect(abs(duration - played) <= 0.0015, "\(relative): \(duration) s, mpg123 plays \(played) s")
    }

    @Test(arguments: ManifestEntry.all.filter { $0.broken != true }.map(\.path))
    func goodFileMatchesTheManifest(_ relative: String) throws {
        let entry = try #require(ManifestEntry.all.first { $0.path == relative })
        let path = scan.path(entry)
        if let failure = scan.failures[path] { Issue.record("\(failure.localizedDescription)") }
        let f = try #require(scan.facts[path])

        #expect(f.format == entry.format)
        #expect(f.title == entry.title)
        #expect(f.artists == (entry.artists ?? []))
        #expect(f.album == entry.album)
        #expect(f.albumartist == entry.albumartist)
        #expect(f.track == entry.track)
        #expect(f.tracktotal == entry.tracktotal)
        #expect(f.disc == entry.disc)
        #expect(f.disctotal == entry.disctotal)
        #expect(f.year == entry.year)
        // A year-only DATE gives the year and no date.
        #expect(f.date == (entry.date?.count == 4 ? nil : entry.date))
        #expect(f.genre == entry.genre)
        #expect(f.composer == entry.composer)
        #expect(f.compilation == (entry.compilation ?? false))
        #expect(f.replaygainTrackGain == entry.replaygain_track_gain)
        #expect(f.replaygainTrackPeak == entry.replaygain_track_peak)
        #expect(f.replaygainAlbumGain == entry.replaygain_album_gain)
        #expect(f.replaygainAlbumPeak == entry.replaygain_album_peak)
        #expect(f.mbTrackID == entry.mb_trackid)
        #expect(f.mbAlbumID == entry.mb_albumid)
        #expect(f.mbArtistID == entry.mb_artistid)
        #expect(f.mbAlbumArtistID == entry.mb_albumartistid)
        #expect(f.mbReleaseGroupID == entry.mb_releasegroupid)

        #expect(f.samplerate == entry.samplerate)
        #expect(f.channels == entry.channels)
        #expect(f.bitdepth == entry.bitdepth)
        let duration = try #require(f.duration)
        let expectedDuration = Double(try #require(entry.duration_ms)) / 1000
        // An MP3 without a LAME tag lasts its whole frames, the encoder's delay and padding
        // included (Samples/README.md); `anMP3LastsWhatTheReferenceDecoderPlays` holds it exactly.
        #expect(abs(duration - expectedDuration) <= (entry.format == "mp3" ? 0.12 : 0.001))
        #expect((f.bitrate ?? 0) > 0)

        let stat = try #require(scan.walk.files.first { $0.path == path })
        #expect(f.size == stat.size && f.mtime == stat.mtime)
        let fingerprint = try #require(f.fingerprint)
        #expect(fingerprint.count == (entry.format == "flac" ? 32 : 16))
    }

    @Test(arguments: ManifestEntry.all.filter { $0.broken != true }.map(\.path))
    func coverMatchesTheManifest(_ relative: String) throws {
        let entry = try #require(ManifestEntry.all.first { $0.path == relative })
        let f = try #require(scan.facts[scan.path(entry)])
        switch entry.cover {
        case nil:
            #expect(f.art == nil)
        case "file":
            let coverPath = Repo.samples + "/" + (try #require(entry.cover_path))
            let hash = try #require(f.art)
            #expect(hash == XXH64.hex(try bytes(of: coverPath)))
            let stored = try #require(scan.art.path(forHash: hash))
            #expect(try bytes(of: stored) == bytes(of: coverPath))
        case let kind?:
            let hash = try #require(f.art)
            let stored = try #require(scan.art.path(forHash: hash))
            #expect(stored.hasSuffix(kind == "jpeg" ? ".jpg" : ".png"))
            #expect(XXH64.hex(try bytes(of: stored)) == hash)
        }
    }

    @Test func fingerprintsTellEveryRecordingApart() {
        let prints = scan.facts.values.compactMap(\.fingerprint)
        #expect(prints.count == scan.facts.count)
        #expect(Set(prints).count == prints.count)
    }

    @Test func readingChangesNothing() throws {
        // The scan above opened every file; none may have been rewritten.
        let again = MediaScanner.walk([Repo.samples])
        #expect(again.files == scan.walk.files)
    }
}

/// stat(2) of `path`, or nil.
func statOf(_ path: String) -> stat? {
    var st = stat()
    return stat(path, &st) == 0 ? st : nil
}
