import BoomicTestSupport
import Foundation
import Glibc
import Testing

/// Identity must follow the song through moves, renames, copies and links (issue 9, item
/// 2.16), through the real binary on real files: names that differ only in Unicode
/// normalisation, files moved into a folder imported on its own, links between music folders,
/// hard links, and swaps found by `import --reread`.
@Suite struct IdentityTests {
    static let modal = "Miles Quartet/Blue Sketches/01 So Modal.flac"
    static let grey = "Miles Quartet/Blue Sketches/02 Blue in Grey.flac"
    static let nfc = "caf\u{E9}.flac"
    static let nfd = "cafe\u{301}.flac"

    var fm: FileManager { .default }

    /// A sandbox whose music folder holds only the given sample files, under the given names
    /// (pairs, not a dictionary: `String` keys would merge NFC and NFD names).
    static func box(_ files: KeyValuePairs<String, String>, _ label: String = #function) throws -> Sandbox {
        let box = try Sandbox(samples: false, label)
        try FileManager.default.createDirectory(atPath: box.music, withIntermediateDirectories: true)
        for (name, sample) in files {
            let to = box.file(name)
            try FileManager.default.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repo.samples + "/" + sample, toPath: to)
        }
        return box
    }

    /// The songs by exact path bytes (JSON keeps them; `String ==` would not tell NFC from NFD).
    func byPath(_ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[UInt8]: SongRecord] {
        let songs = try box.songs(sourceLocation: sourceLocation)
        return Dictionary(songs.map { (Array($0.path.utf8), $0) }, uniquingKeysWith: { a, b in
            Issue.record("two songs at \(a.path)", sourceLocation: sourceLocation)
            return a
        })
    }

    func key(_ path: String) -> [UInt8] { Array(path.utf8) }

    @Test func namesThatDifferOnlyInNormalisationAreTwoSongsThatStayPut() throws {
        let box = try Self.box([Self.nfc: Self.modal, Self.nfd: Self.grey])
        let first = try box.succeed("import", box.music)
        #expect(first.stdout.hasPrefix("Imported: 2 added,"), "\(first)")
        let songs = try byPath(box)
        #expect(songs[key(box.file(Self.nfc))]?.title == "So Modal")
        #expect(songs[key(box.file(Self.nfd))]?.title == "Blue in Grey")
        for _ in 0..<2 {
            let again = try box.succeed("import")
            #expect(again.stdout.hasPrefix("Nothing changed: 0 added, 0 changed, 0 moved, 0 missing, 2 unchanged"), "\(again)")
        }
    }

    @Test func aFileRenamedFromNfcToNfdIsMovedAndFoundAtItsNewName() throws {
        let box = try Self.box([Self.nfc: Self.modal])
        try box.succeed("import", box.music)
        let before = try box.song()
        try fm.moveItem(atPath: box.file(Self.nfc), toPath: box.file(Self.nfd))
        let run = try box.succeed("import")
        #expect(run.stdout.hasPrefix("Imported: 0 added, 0 changed, 1 moved, 0 missing,"), "\(run)")
        let after = try box.song()
        #expect(after.id == before.id)
        #expect(key(after.path) == key(box.file(Self.nfd)), "the library still names the old bytes")
        // The commands that open the file find it.
        try box.succeed("verify")
        try box.succeed("playlist", "new", "p", "title:So Modal")
        let m3u = box.root + "/p.m3u8"
        try box.succeed("playlist", "export", "p", m3u, "--absolute")
        let text = try String(contentsOfFile: m3u, encoding: .utf8)
        #expect(text.utf8.split(separator: UInt8(ascii: "\n")).contains { Array($0) == key(box.file(Self.nfd)) }, "\(text)")
    }

    @Test func aFileMovedIntoAFolderImportedOnItsOwnKeepsItsId() throws {
        let box = try Self.box(["a/" + Self.nfc: Self.modal, "a/grey.flac": Self.grey])
        try box.succeed("import", box.music)
        try box.succeed("modify", "title:So Modal", "rating=4", "-y")
        let before = try box.song("title:So Modal")
        let elsewhere = box.root + "/elsewhere"
        try fm.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try fm.moveItem(atPath: box.file("a/" + Self.nfc), toPath: elsewhere + "/moved.flac")

        let run = try box.succeed("import", elsewhere)
        #expect(run.stdout.hasPrefix("Imported: 0 added, 0 changed, 1 moved, 0 missing,"), "\(run)")
        let after = try box.song("title:So Modal")
        #expect(after.id == before.id && after.rating == 4 && !after.isMissing)
        #expect(after.path == elsewhere + "/moved.flac")
        let rescan = try box.succeed("import")
        #expect(rescan.stdout.hasPrefix("Nothing changed: 0 added, 0 changed, 0 moved, 0 missing, 2 unchanged"), "\(rescan)")
        #expect(try box.songs().count == 2)
    }

    @Test func aCopyIntoAFolderImportedOnItsOwnIsANewSong() throws {
        let box = try Self.box(["a/x.flac": Self.modal])
        try box.succeed("import", box.music)
        let original = try box.song()
        let elsewhere = box.root + "/elsewhere"
        try fm.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try fm.copyItem(atPath: box.file("a/x.flac"), toPath: elsewhere + "/copy.flac")
        let run = try box.succeed("import", elsewhere)
        #expect(run.stdout.hasPrefix("Imported: 1 added,"), "\(run)")
        let songs = try box.songs()
        #expect(songs.count == 2)
        #expect(songs.first { $0.id == original.id }?.path == original.path)
    }

    @Test func aLinkFromOneMusicFolderIntoAnotherAddsNoSecondRoute() throws {
        let box = try Self.box(["A/mine.flac": Self.modal, "B/theirs.flac": Self.grey])
        let a = box.file("A"), b = box.file("B")
        try fm.createSymbolicLink(atPath: a + "/0 link to B", withDestinationPath: b)
        try fm.createSymbolicLink(atPath: a + "/alias.flac", withDestinationPath: b + "/theirs.flac")
        let first = try box.succeed("import", a, b)
        #expect(first.stdout.hasPrefix("Imported: 2 added,"), "\(first)")
        let expected = Set([a + "/mine.flac", b + "/theirs.flac"])
        #expect(Set(try box.songs().map(\.path)) == expected)
        for roots in [[b], [a], [a, b], []] {
            let run = try box.succeed(["import"] + roots)
            #expect(run.stdout.hasPrefix("Nothing changed: 0 added, 0 changed, 0 moved, 0 missing,"), "\(roots): \(run)")
            #expect(Set(try box.songs().map(\.path)) == expected, "\(roots)")
        }
    }

    /// A music folder that is a link (`~/Music` to a NAS's folder) keeps the name it was given,
    /// in the remembered folders and the songs' paths, as beets and MPD keep it: with several
    /// folders, each is named after its last part (`boomic serve`'s top-level directories).
    /// Given again through the link's target, it is the same folder, and no song moves; a
    /// library that remembered the target (as every one did before links were kept) keeps it.
    @Test func aMusicFolderThatIsALinkKeepsItsName() throws {
        let box = try Self.box(["real/x.flac": Self.modal])
        let real = box.file("real"), link = box.root + "/Music"
        try fm.createSymbolicLink(atPath: link, withDestinationPath: real)
        try box.succeed("import", link)
        #expect(try box.songs().map(\.path) == [link + "/x.flac"])
        for again in [real, link, box.root + "/./Music/"] {
            let run = try box.succeed("import", again)
            #expect(run.stdout.hasPrefix("Nothing changed: 0 added, 0 changed, 0 moved, 0 missing,"), "\(again): \(run)")
            #expect(try box.songs().map(\.path) == [link + "/x.flac"], "\(again)")
        }
        // One folder, as given first: not a second spelling of it (a second top-level
        // directory to `boomic serve`, holding nothing).
        let folders = { (box: Sandbox) in try JSONDecoder().decode([String].self, from: Data(contentsOf: URL(fileURLWithPath: box.library + "/folders.json"))) }
        #expect(try folders(box) == [link])
        try box.succeed("init", real)
        #expect(try folders(box) == [link], "init remembers no second spelling either")
        let older = try Self.box(["real/x.flac": Self.modal], "olderLibrary")
        let olderLink = older.root + "/Music"
        try fm.createSymbolicLink(atPath: olderLink, withDestinationPath: older.file("real"))
        try older.succeed("import", older.file("real"))
        let run = try older.succeed("import", olderLink)
        #expect(run.stdout.hasPrefix("Nothing changed: 0 added, 0 changed, 0 moved, 0 missing,"), "\(run)")
        #expect(try older.songs().map(\.path) == [older.file("real/x.flac")])
        #expect(try folders(older) == [older.file("real")])
    }

    @Test func aLinkIntoAFolderImportedLaterIsNotADuplicate() throws {
        let box = try Self.box(["A/mine.flac": Self.modal, "B/theirs.flac": Self.grey])
        let a = box.file("A"), b = box.file("B")
        try box.succeed("init", a, b)
        try fm.createSymbolicLink(atPath: a + "/link", withDestinationPath: b)
        // Only A is scanned: B's file, reached through the link, is listed under B's route.
        try box.succeed("import", a)
        try box.succeed("import", b)
        #expect(Set(try box.songs().map(\.path)) == [a + "/mine.flac", b + "/theirs.flac"])
    }

    @Test func twoHardLinksToOneFileAreOneSong() throws {
        let box = try Self.box(["one.flac": Self.modal])
        #expect(link(box.file("one.flac"), box.file("two.flac")) == 0)
        let run = try box.succeed("import", box.music)
        #expect(run.stdout.hasPrefix("Imported: 1 added,") && run.stdout.contains(", 1 hard link to files listed under another name ("),
                "the import says the second name was not imported: \(run)")
        let other = box.root + "/other"
        try fm.createDirectory(atPath: other, withIntermediateDirectories: true)
        #expect(link(box.file("one.flac"), other + "/three.flac") == 0)
        let again = try box.succeed("import", other)
        #expect(again.stdout.hasPrefix("Nothing changed: 0 added,"), "\(again)")
        #expect(try box.songs().count == 1)
    }

    /// A write killed before its rename leaves a hidden copy beside the file; the next import
    /// removes it when its writer is gone, and leaves a live writer's copy and other hidden
    /// files alone.
    @Test func anImportRemovesTheCopiesAKilledWriteLeft() throws {
        let box = try Self.box(["one.flac": Self.modal])
        let stale = box.file(".one.flac.boomic-4194305-abc.tmp")  // pid_max is at most 2^22: none runs
        let live = box.file(".one.flac.boomic-\(getpid())-def.tmp")
        let other = box.file(".unrelated.tmp")
        for path in [stale, live, other] { #expect(fm.createFile(atPath: path, contents: Data("half".utf8))) }
        try box.succeed("import", box.music)
        #expect(!fm.fileExists(atPath: stale) && fm.fileExists(atPath: live) && fm.fileExists(atPath: other))
        #expect(try box.songs().count == 1)
    }

    @Test func rereadFindsFilesSwappedWithEqualSizeAndTime() throws {
        let box = try Sandbox(samples: false)
        try fm.createDirectory(atPath: box.music, withIntermediateDirectories: true)
        for (name, hz) in [("a.wav", 440), ("b.wav", 880)] {
            let sox = try ChildProcess.run("/usr/bin/sox", ["-R", "-D", "-n", "-r", "8000", "-c", "1", "-b", "16",
                                                           box.file(name), "synth", "0.2", "sine", "\(hz)"])
            try #require(sox.succeeded, "\(sox)")
            var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, box.file(name), &times, 0) == 0)
        }
        try box.succeed("import", box.music)
        let a = try box.songs().first { $0.path == box.file("a.wav") }!
        try box.succeed("modify", "path:" + box.file("a.wav"), "rating=5", "-y")
        try fm.moveItem(atPath: box.file("a.wav"), toPath: box.file("t.wav"))
        try fm.moveItem(atPath: box.file("b.wav"), toPath: box.file("a.wav"))
        try fm.moveItem(atPath: box.file("t.wav"), toPath: box.file("b.wav"))

        let plain = try box.succeed("import")
        #expect(plain.stdout.hasPrefix("Nothing changed:"), "size and mtime are equal: documented as unnoticed \(plain)")
        let reread = try box.succeed("import", "--reread")
        #expect(reread.stdout.hasPrefix("Imported: 0 added, 0 changed, 2 moved, 0 missing,"), "\(reread)")
        let after = try box.songs().first { $0.id == a.id }
        #expect(after?.path == box.file("b.wav") && after?.rating == 5)
        #expect(try box.succeed("import", "--reread").stdout.hasPrefix("Nothing changed:"))
    }
}
