import BoomicTestSupport
import Foundation
import Testing

/// `boomic import Samples/` then `boomic ls --json` gives back every tag `Samples/manifest.json`
/// lists, the broken files are reported one line each without losing anything else, and a
/// second import changes nothing.
@Suite struct ImportRoundTripTests {
    @Test func importReportsWhatItDidAndEveryBrokenFileOnItsOwnLine() throws {
        try ManifestEntry.requireLoaded()
        let box = try Sandbox(brokenFiles: true)
        let run = try box.boomic("import", box.music)

        #expect(run.status == 0 && !run.signaled, "\(run)")
        let good = ManifestEntry.good.count, broken = ManifestEntry.broken.count
        #expect(run.stdout == "Imported: \(good) added, 0 changed, 0 moved, 0 missing, 0 unchanged, \(broken) unreadable (transaction 1)\n")
        // One line per broken file, naming it and saying why; nothing else.
        #expect(run.errorLines.count == broken, "\(run)")
        for entry in ManifestEntry.broken {
            let path = box.file(entry.path)
            let lines = run.errorLines.filter { $0.contains(path) }
            #expect(lines.count == 1, "\(entry.path) should be named once on stderr:\n\(run.stderr)")
            if let line = lines.first, let range = line.range(of: path) {
                let reason = line[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
                #expect(reason.count >= 5, "no reason given for \(entry.path): '\(line)'")
            }
        }
    }

    @Test func everyGoodFileIsListedWithEveryTagOfTheManifest() throws {
        try ManifestEntry.requireLoaded()
        let box = try Sandbox(brokenFiles: true)
        try box.importSamples()
        let songs = try box.songs()

        let byPath = Dictionary(songs.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(songs.count == ManifestEntry.good.count)
        #expect(byPath.count == songs.count, "two songs share a path")
        #expect(Set(songs.map(\.id)).count == songs.count, "two songs share an id")
        for entry in ManifestEntry.broken {
            #expect(byPath[box.file(entry.path)] == nil, "broken \(entry.path) was imported")
        }
        for entry in ManifestEntry.good {
            guard let song = byPath[box.file(entry.path)] else {
                Issue.record("\(entry.path) is not listed")
                continue
            }
            let problems = Self.mismatches(entry, song)
            #expect(problems.isEmpty, "\(entry.path):\n  \(problems.joined(separator: "\n  "))")
        }
    }

    /// Every difference between a manifest entry and the listed song, in words.
    static func mismatches(_ e: ManifestEntry, _ s: SongRecord) -> [String] {
        var out: [String] = []
        func check<T: Equatable>(_ name: String, _ expected: T?, _ actual: T?) {
            if expected != actual { out.append("\(name): expected \(String(describing: expected)), got \(String(describing: actual))") }
        }
        func close(_ name: String, _ expected: Double?, _ actual: Double?, within tolerance: Double) {
            switch (expected, actual) {
            case (nil, nil): break
            case let (e?, a?) where abs(e - a) <= tolerance: break
            default: out.append("\(name): expected \(String(describing: expected)) ± \(tolerance), got \(String(describing: actual))")
            }
        }
        check("format", e.format, s.format)
        check("title", e.title, s.title)
        check("artists", e.artists ?? [], s.artists ?? [])
        if let artists = e.artists, !artists.isEmpty {
            // `artist` is the display string of all of them.
            if !artists.allSatisfy({ s.artist?.contains($0) ?? false }) { out.append("artist: '\(s.artist ?? "nil")' does not name all of \(artists)") }
        } else {
            check("artist", nil, s.artist)
        }
        check("album", e.album, s.album)
        check("albumartist", e.albumartist, s.albumartist)
        check("genre", e.genre, s.genre)
        check("composer", e.composer, s.composer)
        check("track", e.track, s.track)
        check("tracktotal", e.tracktotal, s.tracktotal)
        check("disc", e.disc, s.disc)
        check("disctotal", e.disctotal, s.disctotal)
        check("year", e.year, s.year)
        // A bare year as DATE says nothing `year` does not (BoomicMedia's TagValue.yearAndDate
        // keeps no date then); any longer date is kept as written.
        if let date = e.date, date.count > 4 {
            check("date", date, s.date)
        } else if s.date != nil && s.date != e.date {
            out.append("date: expected \(e.date ?? "nil") or none, got \(s.date!)")
        }
        check("compilation", e.compilation ?? false, s.compilation ?? false)
        close("replaygain_track_gain", e.replaygain_track_gain, s.replaygain_track_gain, within: 1e-6)
        close("replaygain_track_peak", e.replaygain_track_peak, s.replaygain_track_peak, within: 1e-6)
        close("replaygain_album_gain", e.replaygain_album_gain, s.replaygain_album_gain, within: 1e-6)
        close("replaygain_album_peak", e.replaygain_album_peak, s.replaygain_album_peak, within: 1e-6)
        check("mb_trackid", e.mb_trackid, s.mb_trackid)
        check("mb_albumid", e.mb_albumid, s.mb_albumid)
        check("mb_artistid", e.mb_artistid, s.mb_artistid)
        check("mb_albumartistid", e.mb_albumartistid, s.mb_albumartistid)
        check("mb_releasegroupid", e.mb_releasegroupid, s.mb_releasegroupid)
        check("samplerate", e.samplerate, s.samplerate)
        check("channels", e.channels, s.channels)
        check("bitdepth", e.bitdepth, s.bitdepth)
        // MP3 lengths include the encoder delay and padding (Samples/README.md).
        close("duration", e.duration_ms.map { Double($0) / 1000 }, s.duration, within: e.format == "mp3" ? 0.15 : 0.02)
        if (e.cover != nil) != (s.art != nil) {
            out.append("art: manifest cover \(e.cover ?? "none"), listed art \(s.art ?? "none")")
        }
        check("missing", false, s.isMissing)
        return out
    }

    /// `art` names a picture in the library's art store whose bytes are the file's front cover:
    /// the embedded one, or `cover.jpg` beside the files that have none.
    @Test func artIsTheCoverItself() throws {
        let box = try Sandbox(brokenFiles: true)
        try box.importSamples()
        let songs = Dictionary(try box.songs().map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        let covered = ManifestEntry.good.filter { $0.cover != nil }
        try #require(covered.contains { $0.cover == "file" }, "the manifest has no cover.jpg case any more")
        let embedded = try Self.embeddedPictures(in: box.music, covered.filter { $0.cover != "file" }.map(\.path))
        let store = box.library + "/art"
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []

        for entry in covered {
            guard let art = songs[box.file(entry.path)]?.art else {
                Issue.record("\(entry.path) has a \(entry.cover!) cover but no art")
                continue
            }
            let files = stored.filter { $0.hasPrefix(art + ".") || $0 == art }
            guard files.count == 1 else {
                Issue.record("art \(art) of \(entry.path) is not one file in \(store): \(stored)")
                continue
            }
            let bytes = FileManager.default.contents(atPath: store + "/" + files[0])
            let expected: Data?
            if entry.cover == "file" {
                expected = FileManager.default.contents(atPath: box.file(try #require(entry.cover_path)))
            } else {
                expected = embedded[entry.path].flatMap { $0 }.flatMap { Data(base64Encoded: $0) }
                let ext = files[0].split(separator: ".").last.map(String.init)
                #expect(ext == (entry.cover == "png" ? "png" : "jpg"), "\(entry.path): \(files[0]) for a \(entry.cover!) cover")
            }
            #expect(expected != nil, "cannot read the cover of \(entry.path)")
            #expect(bytes == expected, "\(entry.path): art \(files[0]) is not its cover")
        }
        // The same picture is stored once: an album's songs share it.
        let arts = Set(covered.compactMap { songs[box.file($0.path)]?.art })
        #expect(stored.count == arts.count, "art store holds \(stored.count) files for \(arts.count) pictures")
    }

    /// The front cover of each file as mutagen reads it, base64-encoded.
    static func embeddedPictures(in root: String, _ paths: [String]) throws -> [String: String?] {
        let script = """
            import base64, json, sys, mutagen
            from mutagen.flac import Picture
            out = {}
            for p in sys.argv[2:]:
                f = mutagen.File(sys.argv[1] + "/" + p)
                data = None
                if getattr(f, "pictures", None):
                    data = f.pictures[0].data
                elif f.tags is not None and hasattr(f.tags, "getall") and f.tags.getall("APIC"):
                    data = f.tags.getall("APIC")[0].data
                elif f.tags is not None and f.tags.get("metadata_block_picture"):
                    data = Picture(base64.b64decode(f.tags["metadata_block_picture"][0])).data
                out[p] = base64.b64encode(data).decode() if data else None
            print(json.dumps(out))
            """
        let run = try ChildProcess.run(systemPython, ["-c", script, root] + paths)
        try #require(run.succeeded, "\(run)")
        return try decodeJSON([String: String?].self, run.stdout)
    }

    /// `ls -a --json` groups the manifest's songs into its albums: a compilation of four artists
    /// is one album, two discs are one album, a song without an album artist joins its artist's
    /// album, and files with no album are in none.
    @Test func albumsAreTheManifestsAlbums() throws {
        try ManifestEntry.requireLoaded()
        let box = try Sandbox()
        try box.importSamples()
        let run = try box.succeed("ls", "-a", "--json")

        struct Album: Decodable, Hashable { var album: String; var albumartist: String; var songs: Int; var discs: Int; var compilation: Bool; var year: Int? }
        let listed = try decodeJSON([Album].self, run.stdout)
        let groups = Dictionary(grouping: ManifestEntry.good.filter { $0.album != nil }) { e in
            [e.albumartist ?? e.artists?.first ?? "", e.album!]
        }
        let expected = groups.map { key, entries in
            Album(album: key[1], albumartist: key[0], songs: entries.count,
                  discs: max(1, Set(entries.compactMap(\.disc)).count),
                  compilation: entries.contains { $0.compilation ?? false }, year: entries.compactMap(\.year).min())
        }
        #expect(Set(listed) == Set(expected))
        #expect(listed.count == expected.count, "an album is listed twice")
    }

    @Test func importingAgainChangesNothingAndCommitsNothing() throws {
        let box = try Sandbox(brokenFiles: true)
        try box.importSamples()
        let before = try box.listing()
        let history = try box.history()

        for again in [["import", box.music], ["import"]] {
            let run = try box.boomic(again)
            #expect(run.succeeded, "\(run)")
            let good = ManifestEntry.good.count, broken = ManifestEntry.broken.count
            #expect(run.stdout == "Nothing changed: 0 added, 0 changed, 0 moved, 0 missing, \(good) unchanged, \(broken) unreadable\n", "\(run)")
            #expect(try box.history() == history)
            #expect(try box.listing() == before)
        }
    }
}
