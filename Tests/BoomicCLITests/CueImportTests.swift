import BoomicTestSupport
import Foundation
import Testing

/// A FLAC image with its CUE sheet comes in as its tracks (issue 34, item 4): the sheet's
/// fields, exact sample bounds, the image not listed as a song of its own; and a sheet that
/// comes or goes after the import turns the image's song into tracks and back in one
/// transaction, with the song's plays, rating, tags and playlist places on the first track.
@Suite struct CueImportTests {
    @Test func anImageWithItsSheetComesInAsItsTracks() throws {
        let box = try Sandbox(samples: false)
        let dir = box.music + "/Les Rivières/Chansons d'été"
        try CueImage.make(in: dir)
        let run = try box.succeed("import", box.music)
        #expect(run.stderr.isEmpty, "\(run)")
        let songs = try box.songs().sorted { ($0.track ?? 0) < ($1.track ?? 0) }
        #expect(songs.map(\.title) == CueImage.titles)
        #expect(songs.map(\.track) == [1, 2, 3] && songs.allSatisfy { $0.tracktotal == 3 })
        #expect(songs.map(\.start) == CueImage.starts)
        #expect(songs.map(\.end) == [CueImage.starts[1], CueImage.starts[2], nil])
        #expect(songs.allSatisfy { $0.album == CueImage.album && $0.albumartist == CueImage.performer })
        #expect(songs.map(\.artist) == ["Les Rivières", "Zoë", "Les Rivières"])
        #expect(songs.allSatisfy { $0.year == 1998 && $0.genre == "Chanson" && $0.comment == "ExactAudioCopy v1.6" })
        #expect(songs.allSatisfy { $0.path == dir + "/" + CueImage.image && $0.sheet == dir + "/" + CueImage.sheet })
        #expect(songs[0].isrc == "FRZ039800212" && songs[0].catalognum == "0724384960650")
        let lengths = zip(CueImage.starts, CueImage.starts.dropFirst() + [CueImage.totalSamples]).map { Double($1 - $0) / 44_100 }
        for (song, length) in zip(songs, lengths) { #expect(abs((song.duration ?? 0) - length) < 1e-9, "\(song)") }

        // Nothing changed: nothing is committed.
        let history = try box.historyCount()
        try box.succeed("import")
        #expect(try box.historyCount() == history)
        // A track is edited as any song, and a rescan keeps the edit.
        try box.succeed("modify", "title:Naïve", "genre=Jazz", "-y")
        try box.succeed("import")
        #expect(try box.song("title:Naïve").genre == "Jazz")
        #expect(try box.historyCount() == history + 1)
    }

    @Test func aSheetThatComesOrGoesTurnsTheSongIntoTracksAndBackKeepingWhatItCarried() throws {
        let box = try Sandbox(samples: false)
        let dir = box.music + "/Album"
        try CueImage.make(in: dir, sheet: false)
        try box.succeed("import", box.music)
        let whole = try box.song("album:Unknown image")
        try box.succeed("modify", "album:Unknown image", "rating=4", "-y")
        try box.succeed("tag", "album:Unknown image", "+#kept", "-y")
        try box.succeed("playlist", "new", "Mix", "album:Unknown image")
        let history = try box.historyCount()

        try CueImage.writeSheet(in: dir)
        let split = try box.succeed("import")
        #expect(try box.historyCount() == history + 1, "one transaction: \(split)")
        let tracks = try box.songs().sorted { ($0.start ?? 0) < ($1.start ?? 0) }
        #expect(tracks.map(\.title) == CueImage.titles)
        #expect(tracks[0].id == whole.id && tracks[0].rating == 4 && tracks[0].tags == ["#kept"])
        #expect(try PlaylistCommandTests.entries(box, "Mix").map(\.id) == [whole.id])

        try FileManager.default.removeItem(atPath: dir + "/" + CueImage.sheet)
        let joined = try box.succeed("import")
        // The rescan's one transaction, then the guesses' own: the whole image has no title tag,
        // so its title comes from its file name (import.md, "Tags from names").
        #expect(try box.historyCount() == history + 3, "one transaction and the guesses: \(joined)")
        #expect(joined.stdout.contains("Guessed from folder and file names: 1 song"), "\(joined)")
        #expect(joined.stdout.contains("2 missing"), "\(joined)")
        let present = try box.songs().filter { !$0.isMissing }
        #expect(present.map(\.id) == [whole.id] && present[0].start == nil && present[0].rating == 4)
        #expect(abs((present[0].duration ?? 0) - 6) < 1e-9)

        // The sheet back: the tracks come back with their ids.
        try CueImage.writeSheet(in: dir)
        try box.succeed("import")
        let again = try box.songs().filter { !$0.isMissing }.sorted { ($0.start ?? 0) < ($1.start ?? 0) }
        #expect(again.map(\.id) == tracks.map(\.id))
    }

    /// The sheet and the image are the user's bytes: writing an edited track is refused in one
    /// line, and the image is left as it was.
    @Test func writingACueTrackIsRefusedInOneLine() throws {
        let box = try Sandbox(samples: false)
        let image = try CueImage.make(in: box.music + "/Album")
        try box.succeed("import", box.music)
        let before = try #require(FileManager.default.contents(atPath: image))
        try box.succeed("modify", "title:Naïve", "title=Naive", "-y")
        let run = try box.boomic("write", "-y")
        #expect(!run.succeeded, "\(run)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.first?.contains("track 2: a CUE track's tags are not written") == true, "\(run)")
        #expect(FileManager.default.contents(atPath: image) == before)
        #expect(try box.song("title:Naive").track == 2)
    }

    @Test func aBadSheetIsOneWarningAndTheImageOneSong() throws {
        let box = try Sandbox(samples: false)
        let dir = box.music + "/Album"
        try CueImage.make(in: dir, sheet: false)
        let bad = CueImage.text.replacingOccurrences(of: "INDEX 01 00:04:05", with: "INDEX 01 00:01:05")
        try Data(bad.utf8).write(to: URL(fileURLWithPath: dir + "/" + CueImage.sheet))
        let run = try box.boomic("import", box.music)
        #expect(run.succeeded, "\(run)")
        let warnings = run.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].contains("track 3 starts at 00:01:05, not after track 2"), "\(run)")
        #expect(try box.songs().map(\.start) == [nil])
    }
}

/// The sample CUE image (`Samples/CUE Image/`, made by scripts/make-samples.py) comes in as
/// its three tracks, as scripts/demo shows it.
@Suite struct CueSampleTests {
    @Test func theSampleImageIsThreeTracks() throws {
        let box = try Sandbox(cueImage: true)
        try box.importSamples()
        let tracks = try box.songs("album:Chansons d'été", "track+")
        #expect(tracks.map(\.title) == CueImage.titles)
        #expect(tracks.map(\.start) == CueImage.starts)
        #expect(try box.songs().count == ManifestEntry.good.count + 3)
    }
}
