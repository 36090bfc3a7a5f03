import BoomicTestSupport
import Foundation
import Testing

/// Re-running `boomic import` is an incremental rescan (DESIGN §1 "Identity, rescans"): a moved
/// file keeps its id, a retagged file is read again, a deleted file is marked missing (not
/// forgotten) and comes back when it returns; the library's own fields survive all of it.
@Suite struct RescanTests {
    static let modal = "Miles Quartet/Blue Sketches/01 So Modal.flac"
    static let opening = "The Long Road Band/Double Live/1-01 Opening.flac"
    static let eightBit = "Old Timer/Retro Hits/01 Eight Bit Song.mp3"

    /// A song without a picture of its own takes its folder's `cover.jpg`, so a cover added,
    /// replaced or removed is a change to the songs, though their files did not change: a
    /// rescan sees it (MPD serves a new cover at once), and leaves the songs with their own alone.
    @Test func aFolderCoverAddedReplacedOrRemovedReachesItsSongs() throws {
        let box = try Sandbox()
        try box.importSamples()
        let picture = try #require(FileManager.default.contents(atPath: box.file("Дмитрий Соколов/Зимняя дорога/cover.jpg")))
        let birds = "title:Morning Birds", modal = "title:So Modal"
        let ownArt = try box.song(modal).art
        try #require(try box.song(birds).art == nil && ownArt != nil)
        let history = try box.history().count

        // Added beside songs with no picture, and beside songs with their own.
        try picture.write(to: URL(fileURLWithPath: box.file("Field Recordist/Backyard Sessions/cover.jpg")))
        try picture.write(to: URL(fileURLWithPath: box.file("Miles Quartet/Blue Sketches/Folder.JPG")))
        let added = try box.succeed("import")
        #expect(added.stdout.hasPrefix("Imported: 0 added, 2 changed,"), "\(added)")
        let first = try box.song(birds).art
        let rain = try box.song("title:Evening Rain").art
        #expect(first != nil && first == rain)
        let modalArt = try box.song(modal).art
        #expect(modalArt == ownArt, "a song's own picture comes before its folder's")

        // Nothing changed since: nothing is read again, nothing committed.
        try box.succeed("import")
        #expect(try box.history().count == history + 1)

        // Replaced by another picture, then removed.
        try (picture + Data([0])).write(to: URL(fileURLWithPath: box.file("Field Recordist/Backyard Sessions/cover.jpg")))
        try box.succeed("import")
        let second = try box.song(birds).art
        #expect(second != nil && second != first, "the replaced cover was not taken")
        try FileManager.default.removeItem(atPath: box.file("Field Recordist/Backyard Sessions/cover.jpg"))
        try box.succeed("import")
        #expect(try box.song(birds).art == nil, "the removed cover stayed")
        #expect(try box.history().count == history + 3)
    }

    @Test func movedFileKeepsItsIdAndTheUsersFields() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "rating=4", "-y")
        try box.succeed("tag", "title:So Modal", "+#favourites", "-y")
        let before = try box.song("title:So Modal")
        let count = try box.songs().count

        try FileManager.default.createDirectory(atPath: box.file("Elsewhere/Deeper"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: box.file(Self.modal), toPath: box.file("Elsewhere/Deeper/renamed.flac"))
        let run = try box.boomic("import")

        #expect(run.succeeded, "\(run)")
        #expect(run.stdout.hasPrefix("Imported: 0 added, 0 changed, 1 moved, 0 missing,"), "\(run)")
        let after = try box.song("title:So Modal")
        #expect(after.id == before.id)
        #expect(after.path == box.file("Elsewhere/Deeper/renamed.flac"))
        #expect(after.isMissing == false)
        #expect(after.rating == 4)
        #expect(after.tags == ["#favourites"])
        var expected = before
        expected.path = after.path
        #expect(after == expected, "a move changes the path only")
        #expect(try box.songs().count == count)
        #expect(try box.history().first?.label == "import: 1 moved")
    }

    /// Moving a file changes nothing in it, so a move must not undo library edits of fields
    /// the file also carries (genre, comment, …): only the path changes.
    @Test func movedFileKeepsLibraryEditsOfFileFields() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "genre=Modal Jazz", "comment=my favourite", "-y")
        let before = try box.song("title:So Modal")
        try FileManager.default.moveItem(atPath: box.file(Self.modal), toPath: box.file("Loose Files/So Modal.flac"))
        try box.succeed("import")
        let after = try box.song("title:So Modal")
        #expect(after.id == before.id && after.path == box.file("Loose Files/So Modal.flac"))
        #expect(after.genre == "Modal Jazz", "moving the file reverted the user's genre edit")
        #expect(after.comment == "my favourite", "moving the file reverted the user's comment edit")
    }

    @Test func retaggedFileIsReadAgainAndTheLibrarysFieldsSurvive() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:Opening", "rating=5", "-y")
        try box.succeed("tag", "title:Opening", "+#roadtrip", "+#mood:loud", "-y")
        let before = try box.song("title:Opening")
        let others = try box.songs().filter { $0.id != before.id }
        let historyCount = try box.historyCount()

        try box.retag(Self.opening, ["title": "Opening (Remastered Edition)", "genre": "Southern Rock"])
        let run = try box.boomic("import")

        #expect(run.succeeded, "\(run)")
        #expect(run.stdout.hasPrefix("Imported: 0 added, 1 changed, 0 moved, 0 missing,"), "\(run)")
        let after = try box.song("title:Opening (Remastered")
        #expect(after.id == before.id)
        #expect(after.title == "Opening (Remastered Edition)")
        #expect(after.genre == "Southern Rock")
        #expect(after.rating == 5, "the user's rating was lost by the rescan")
        #expect(after.tags == ["#mood:loud", "#roadtrip"], "the user's tags were lost by the rescan")
        #expect(after.album == before.album && after.mb_trackid == before.mb_trackid && after.path == before.path)
        #expect(try box.songs().filter { $0.id != before.id } == others, "only the retagged song changes")
        #expect(try box.historyCount() == historyCount + 1)
    }

    /// A library edit of a field (not written to the file) survives a rescan when another
    /// program changed a *different* field of the file, e.g. a ReplayGain scanner or a title
    /// fix: only what changed in the file since it was last read may overwrite the library.
    @Test func libraryEditOfAFieldTheFileDidNotChangeSurvivesARescan() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:Opening", "genre=Library Genre", "-y")
        try box.retag(Self.opening, ["title": "Opening Night"])
        try box.succeed("import")
        let after = try box.song("title:Opening Night")
        #expect(after.genre == "Library Genre", "the user's genre edit was silently reverted to the file's value by a rescan")
    }

    @Test func deletedFileIsMarkedMissingThenFoundAgain() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:Eight Bit", "rating=2", "-y")
        let before = try box.song("title:Eight Bit")
        let count = try box.songs().count

        try FileManager.default.removeItem(atPath: box.file(Self.eightBit))
        let gone = try box.boomic("import")
        #expect(gone.succeeded, "\(gone)")
        #expect(gone.stdout.hasPrefix("Imported: 0 added, 0 changed, 0 moved, 1 missing,"), "\(gone)")
        let missing = try box.song("title:Eight Bit")
        #expect(missing.isMissing, "a deleted file must be marked missing")
        #expect(missing.id == before.id && missing.rating == 2 && missing.title == before.title)
        #expect(try box.songs().count == count, "a missing song is still listed")
        let plain = try box.succeed("ls", "title:Eight Bit")
        #expect(plain.stdout == "Old Timer - Retro Hits - Eight Bit Song (missing)\n")
        #expect(try box.history().first?.label == "import: 1 missing")

        // A second rescan has nothing new to say about it.
        let again = try box.boomic("import")
        #expect(again.stdout.hasPrefix("Nothing changed:"), "\(again)")

        try FileManager.default.copyItem(atPath: Repo.samples + "/" + Self.eightBit, toPath: box.file(Self.eightBit))
        let back = try box.boomic("import")
        #expect(back.succeeded, "\(back)")
        let found = try box.song("title:Eight Bit")
        #expect(found.isMissing == false)
        #expect(found.id == before.id)
        #expect(found.rating == 2)
        #expect(try box.songs().count == count)
        let plainAgain = try box.succeed("ls", "title:Eight Bit")
        #expect(plainAgain.stdout == "Old Timer - Retro Hits - Eight Bit Song\n")
    }

    /// Identity follows the audio, not the tags: a file both moved and retagged by another
    /// program keeps its id, whatever its format and tag format.
    @Test(arguments: [
        "The Long Road Band/Double Live/2-01 Encore.flac",          // vorbis comments
        "Motörhead-ish/Ace of Spätz/03 Bömber.mp3",                 // ID3v2.4
        "坂本 龍一郎/東京の夜/1-02 雨の駅.mp3",                        // ID3v2.3
        "Old Timer/Retro Hits/01 Eight Bit Song.mp3",               // ID3v1 only
        "Free Software Choir/Open Voices/01 Vorbis Dawn.ogg",       // Ogg Vorbis
        "Field Recordist/Backyard Sessions/01 Morning Birds.wav",   // WAV with an ID3 chunk
    ])
    func movedAndRetaggedFileKeepsItsId(_ relative: String) throws {
        let box = try Sandbox()
        try box.importSamples()
        let before = try #require(try box.songs().first { $0.path == box.file(relative) })
        try box.succeed("modify", "title:=\(before.title ?? "")", "rating=1", "-y")

        let moved = "Moved Here/" + (relative as NSString).lastPathComponent
        try FileManager.default.createDirectory(atPath: box.file("Moved Here"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: box.file(relative), toPath: box.file(moved))
        try box.retag(moved, ["title": "Renamed and Moved"])
        let run = try box.succeed("import")

        #expect(run.stdout.hasPrefix("Imported: 0 added, 0 changed, 1 moved, 0 missing,"), "\(run)")
        let after = try box.song("title:Renamed and Moved")
        #expect(after.id == before.id)
        #expect(after.path == box.file(moved))
        #expect(after.rating == 1)
        #expect(after.album == before.album && after.isMissing == false)
    }

    /// A file moved while missing (deleted in one rescan, back elsewhere in the next) is the
    /// same song, found again by its fingerprint.
    @Test func fileThatReturnsElsewhereIsTheSameSong() throws {
        let box = try Sandbox()
        try box.importSamples()
        let before = try box.song("title:Eight Bit")
        try FileManager.default.removeItem(atPath: box.file(Self.eightBit))
        try box.succeed("import")
        try FileManager.default.copyItem(atPath: Repo.samples + "/" + Self.eightBit, toPath: box.file("Loose Files/eight bit.mp3"))
        let run = try box.succeed("import")
        #expect(run.stdout.hasPrefix("Imported: 0 added, 0 changed, 1 moved, 0 missing,"), "\(run)")
        let found = try box.song("title:Eight Bit")
        #expect(found.id == before.id && found.isMissing == false && found.path == box.file("Loose Files/eight bit.mp3"))
    }

    /// A copy of a file that is still in place is a new song, not a move.
    @Test func copyOfAPresentFileIsANewSong() throws {
        let box = try Sandbox()
        try box.importSamples()
        let original = try box.song("title:So Modal")
        try FileManager.default.copyItem(atPath: box.file(Self.modal), toPath: box.file("Loose Files/modal copy.flac"))
        let run = try box.succeed("import")
        #expect(run.stdout.hasPrefix("Imported: 1 added, 0 changed, 0 moved, 0 missing,"), "\(run)")
        let both = try box.songs("title:So Modal")
        #expect(both.count == 2)
        #expect(both.contains(original), "the original song must not change")
        #expect(both.contains { $0.id != original.id && $0.path == box.file("Loose Files/modal copy.flac") })
    }

    /// Moves, edits and deletions found by one rescan are one transaction, and undo takes the
    /// whole rescan back.
    @Test func oneRescanIsOneTransaction() throws {
        let box = try Sandbox()
        try box.importSamples()
        let listed = try box.listing()
        try FileManager.default.moveItem(atPath: box.file(Self.modal), toPath: box.file("Loose Files/So Modal.flac"))
        try box.retag(Self.opening, ["title": "Opening Night"])
        try FileManager.default.removeItem(atPath: box.file(Self.eightBit))

        let run = try box.succeed("import")
        #expect(run.stdout.hasPrefix("Imported: 0 added, 1 changed, 1 moved, 1 missing,"), "\(run)")
        let history = try box.history()
        #expect(history.map(\.label) == ["import: 1 changed, 1 moved, 1 missing", "import: \(ManifestEntry.good.count) new"])

        try box.succeed("undo", "-y")
        #expect(try box.listing() == listed, "undo gives back the library before the rescan")
    }
}
