import BoomicCore
import BoomicMedia
import BoomicTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@Suite struct ScannerWalkTests {
    let dir = TempDir("boomic-walk")
    var fm: FileManager { .default }

    func touch(_ relative: String, bytes: Int = 3) throws {
        let path = dir.file(relative)
        try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(repeating: 7, count: bytes).write(to: URL(fileURLWithPath: path))
    }

    func relative(_ walk: Walk) -> [String] {
        walk.files.map { String($0.path.dropFirst(dir.path.count + 1)) }
    }

    @Test func keepsAudioSkipsHiddenAndOtherFiles() throws {
        for f in ["b/2.mp3", "b/1.FLAC", "a.ogg", "a/x.opus", "notes.txt", "cover.jpg", "noext", ".hidden.mp3",
                  "._a.flac", ".git/c.flac", "b/.cache/d.mp3", "c/e.M4A", "c/f.wv", "g.flac.part"] {
            try touch(f)
        }
        let walk = MediaScanner.walk([dir.path])
        #expect(walk.failures.isEmpty)
        #expect(relative(walk) == ["a/x.opus", "a.ogg", "b/1.FLAC", "b/2.mp3", "c/e.M4A", "c/f.wv"])
    }

    /// Each folder with audio in it says what its cover files look like (names, sizes, times,
    /// in the order they are preferred), so a rescan can see one added, replaced or removed.
    @Test func foldersSayWhatTheirCoversLookLike() throws {
        for f in ["a/1.flac", "a/Folder.JPG", "a/cover.png", "b/2.mp3", "c/notes.txt", "c/cover.jpg"] { try touch(f) }
        try touch("a/cover.png", bytes: 5)
        let walk = MediaScanner.walk([dir.path])
        let a = try #require(walk.covers[dir.file("a")])
        #expect(a.hasPrefix("cover.png 5 ") && a.contains("|Folder.JPG 3 "), "\(a)")
        #expect(walk.covers[dir.file("b")] == "")
        #expect(walk.covers[dir.file("c")] == nil, "no audio, no cover to give")
        try touch("b/front.jpeg")
        #expect(MediaScanner.walk([dir.path]).covers[dir.file("b")]?.hasPrefix("front.jpeg 3 ") == true)
    }

    /// Names that are not UTF-8 (Latin-1 from an old Windows copy) are reported, not listed
    /// under a path with U+FFFD in it that names no file; other files are not reported.
    @Test func namesThatAreNotUTF8AreReportedNotListed() throws {
        try touch("ok/a.flac")
        for (name, isFolder) in [("Mot\u{F6}rhead.flac", false), ("Caf\u{E9}", true), ("notes\u{E9}.txt", false)] {
            var bytes = Array(dir.path.utf8) + [0x2F]
            bytes += name.unicodeScalars.map { UInt8($0.value) }   // Latin-1: one byte a letter
            bytes.append(0)
            let made = bytes.withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { path in
                    isFolder ? mkdir(path, 0o755) : open(path, O_CREAT | O_WRONLY, 0o644)
                }
            }
            #expect(made >= 0)
            if !isFolder { close(made) }
        }
        let walk = MediaScanner.walk([dir.path])
        #expect(relative(walk) == ["ok/a.flac"])
        #expect(walk.badNames.map { String($0.dropFirst(dir.path.count + 1)) } == ["Caf\u{FFFD}", "Mot\u{FFFD}rhead.flac"])
        #expect(walk.failures.isEmpty)
    }

    @Test func sizesAndNanosecondMtimes() throws {
        try touch("t.flac", bytes: 1234)
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 123_456_789),
                     timespec(tv_sec: 1_600_000_000, tv_nsec: 123_456_789)]
        #expect(utimensat(AT_FDCWD, dir.file("t.flac"), &times, 0) == 0)
        let files = try MediaScanner.list(roots: [dir.path])
        #expect(files == [ListedFile(path: dir.file("t.flac"), size: 1234, mtime: 1_600_000_000_123_456_789)])
    }

    @Test func followsSymlinksOnceAndSurvivesLoops() throws {
        try touch("real/song.mp3")
        try fm.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: dir.file("real"))
        try fm.createSymbolicLink(atPath: dir.file("real/loop"), withDestinationPath: dir.path)
        try fm.createSymbolicLink(atPath: dir.file("dangling.flac"), withDestinationPath: dir.file("gone.flac"))
        try fm.createSymbolicLink(atPath: dir.file("alias.mp3"), withDestinationPath: dir.file("real/song.mp3"))
        let walk = MediaScanner.walk([dir.path])
        #expect(walk.failures.isEmpty)
        // One file, one entry, under its direct route: "link" sorts first, and "alias.mp3" is
        // a link to the same file, but links are followed only after the direct routes.
        #expect(relative(walk) == ["real/song.mp3"])
    }

    @Test func aLinkIntoAnotherMusicFolderIsListedUnderThatFolder() throws {
        try touch("A/mine.mp3")
        try touch("B/sub/theirs.mp3", bytes: 5)
        try fm.createSymbolicLink(atPath: dir.file("A/link"), withDestinationPath: dir.file("B/sub"))
        try fm.createSymbolicLink(atPath: dir.file("A/alias.mp3"), withDestinationPath: dir.file("B/sub/theirs.mp3"))
        // Walked alone, A reaches B's file only through the links: listed once, under B's route.
        #expect(MediaScanner.walk([dir.file("A")], homes: [dir.file("B")]).files.map(\.path)
                == [dir.file("A/mine.mp3"), dir.file("B/sub/theirs.mp3")])
        // Without B as a home, the link is the only route there is.
        #expect(relative(MediaScanner.walk([dir.file("A")])) == ["A/mine.mp3", "A/alias.mp3"])
        // Both roots: the direct route wins, whichever root comes first.
        #expect(relative(MediaScanner.walk([dir.file("A"), dir.file("B")])) == ["A/mine.mp3", "B/sub/theirs.mp3"])
    }

    @Test func hardLinksAreOneFile() throws {
        try touch("a/one.flac")
        try fm.createDirectory(atPath: dir.file("b"), withIntermediateDirectories: true)
        #expect(link(dir.file("a/one.flac"), dir.file("b/two.flac")) == 0)
        #expect(relative(MediaScanner.walk([dir.path])) == ["a/one.flac"])
        #expect(relative(MediaScanner.walk([dir.file("b"), dir.file("a")])) == ["b/two.flac"])
    }

    @Test func foldersTooDeepAreReported() throws {
        let deep = Array(repeating: "d", count: MediaScanner.maxDepth + 2).joined(separator: "/")
        try touch("shallow.mp3")
        try touch(deep + "/lost.mp3")
        let walk = MediaScanner.walk([dir.path])
        #expect(relative(walk) == ["shallow.mp3"])
        let tooDeep = dir.file(Array(repeating: "d", count: MediaScanner.maxDepth + 1).joined(separator: "/"))
        #expect(walk.failures.map(\.path) == [tooDeep])
        #expect(walk.failures.first?.reason.contains("deep") == true)
    }

    @Test func overlappingRootsListEachFileOnce() throws {
        try touch("x/y/a.flac")
        let walk = MediaScanner.walk([dir.path, dir.file("x/y"), dir.file("x/y/../y/")])
        #expect(walk.files.map(\.path) == [dir.file("x/y/a.flac")])
    }

    @Test func singleFileRootAndRelativeRoots() throws {
        try touch("one.mp3")
        #expect(MediaScanner.walk([dir.file("one.mp3")]).files.map(\.path) == [dir.file("one.mp3")])
        // A root relative to the working directory, reached with `..` from wherever the tests
        // run: changing the process's directory to the temporary one (as this test did) let a
        // test running alongside start a child in it just before it was deleted, and Foundation
        // reported that as `/usr/bin/env` not existing.
        let up = String(repeating: "../", count: fm.currentDirectoryPath.split(separator: "/").count)
        #expect(MediaScanner.walk([up + dir.path.dropFirst()]).files.map(\.path) == [dir.file("one.mp3")])
    }

    @Test func missingRootIsAFailureAndListThrows() throws {
        let gone = dir.file("gone")
        let walk = MediaScanner.walk([gone])
        #expect(walk.files.isEmpty)
        #expect(walk.failures == [.unreadableFolder(path: gone, reason: "No such file or directory")])
        #expect(throws: MediaError.unreadableFolder(path: gone, reason: "No such file or directory")) {
            try MediaScanner.list(roots: [gone])
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root reads every folder")) func unreadableFolderIsReported() throws {
        try touch("open/a.mp3")
        try touch("closed/b.mp3")
        chmod(dir.file("closed"), 0)
        defer { chmod(dir.file("closed"), 0o755) }
        let walk = MediaScanner.walk([dir.path])
        #expect(relative(walk) == ["open/a.mp3"])
        #expect(walk.failures.map(\.path) == [dir.file("closed")])
    }

    @Test func customExtensions() throws {
        try touch("a.mp3")
        try touch("b.xyz")
        let options = MediaScanner.Options(extensions: ["XYZ"])
        #expect(MediaScanner.walk([dir.path], options: options).files.map(\.path) == [dir.file("b.xyz")])
    }
}

@Suite struct ScannerReadTests {
    let dir = TempDir("boomic-read")

    /// Copies of Samples/ (good and broken) in a private tree.
    func tree() throws -> [ListedFile] {
        let root = dir.file("music")
        try FileManager.default.copyItem(atPath: Repo.samples, toPath: root)
        return try MediaScanner.list(roots: [root])
    }

    @Test func readAllKeepsInputOrderAndIsDeterministic() throws {
        let files = try tree()
        #expect(files.count > 30)
        let shuffled = files.reversed() + files
        let art1 = try ArtStore(directory: dir.file("art1"))
        let art2 = try ArtStore(directory: dir.file("art2"))
        let one = MediaScanner.readAll(Array(shuffled), art: art1, options: .init(concurrency: 1))
        let many = MediaScanner.readAll(Array(shuffled), art: art2, options: .init(concurrency: 4))
        #expect(one.facts == many.facts)
        #expect(one.failures == many.failures)
        let expected = shuffled.filter { !$0.path.contains("/Broken/") }.map(\.path)
        #expect(one.facts.map(\.path) == expected)
        #expect(one.failures.map(\.path) == shuffled.filter { $0.path.contains("/Broken/") }.map(\.path))
        for (listed, facts) in zip(shuffled.filter { !$0.path.contains("/Broken/") }, one.facts) {
            #expect(facts.size == listed.size && facts.mtime == listed.mtime)
        }
    }

    @Test func progressAddsUpToTheFileCount() throws {
        let files = try tree()
        let total = Mutex(0)
        let calls = Mutex(0)
        let result = MediaScanner.readAll(files + files + files, art: try ArtStore(directory: dir.file("art"))) { n in
            #expect(n > 0)
            total.withLock { $0 += n }
            calls.withLock { $0 += 1 }
        }
        #expect(total.withLock { $0 } == files.count * 3)
        #expect(calls.withLock { $0 } >= 2)
        #expect(result.facts.count + result.failures.count == files.count * 3)
    }

    @Test func emptyInput() throws {
        let result = MediaScanner.readAll([], art: try ArtStore(directory: dir.file("art"))) { _ in
            Issue.record("no progress for nothing")
        }
        #expect(result.facts.isEmpty && result.failures.isEmpty)
    }

    @Test func readingNeverModifiesAFile() throws {
        let files = try tree()
        let before = try files.map { try bytes(of: $0.path) }
        _ = MediaScanner.readAll(files, art: try ArtStore(directory: dir.file("art")))
        #expect(try files.map { try bytes(of: $0.path) } == before)
        #expect(try MediaScanner.list(roots: [dir.file("music")]) == files)
    }

    @Test func fileGoneSinceTheWalkFailsWithItsPath() throws {
        // A file vanished between the walk and the read.
        let gone = ListedFile(path: dir.file("gone.flac"), size: 1, mtime: 1)
        let result = MediaScanner.read(gone, art: try ArtStore(directory: dir.file("art")))
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.path == gone.path)
        #expect(error.errorDescription == "\(gone.path): cannot open the file (No such file or directory)")
    }

    @Test func folderCoverIsUsedOnlyWithoutEmbeddedArt() throws {
        let album = dir.file("album")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.samples + "/Loose Files/no tags at all.flac",
                                         toPath: album + "/plain.flac")
        try FileManager.default.copyItem(atPath: Repo.samples + "/Miles Quartet/Blue Sketches/01 So Modal.flac",
                                         toPath: album + "/embedded.flac")
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("folder art".utf8)
        try Data(jpeg).write(to: URL(fileURLWithPath: album + "/Folder.JPG"))
        try Data([0x89, 0x50, 0x4E, 0x47] + Array("preferred".utf8)).write(to: URL(fileURLWithPath: album + "/COVER.png"))

        let art = try ArtStore(directory: dir.file("art"), musicFolders: [album])
        let files = try MediaScanner.list(roots: [album])
        let facts = MediaScanner.readAll(files, art: art).facts
        let plain = try #require(facts.first { $0.path.hasSuffix("plain.flac") })
        let embedded = try #require(facts.first { $0.path.hasSuffix("embedded.flac") })
        #expect(plain.art == XXH64.hex([0x89, 0x50, 0x4E, 0x47] + Array("preferred".utf8)), "cover.* before folder.*")
        #expect(embedded.art != nil && embedded.art != plain.art)
        #expect(art.path(forHash: try #require(plain.art))?.hasSuffix(".png") == true)
    }

    /// A folder whose only cover is `Folder.WEBP` (WebP, and the names' case, as the cover rule
    /// allows): its songs get it, stored as WebP (sniffed from `RIFF….WEBP`), as do `album.*`
    /// and `albumart.*`, in the rule's order.
    @Test func aWebPCoverOfAnyCaseIsTheFoldersCover() throws {
        let album = dir.file("webp")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.samples + "/Loose Files/no tags at all.flac", toPath: album + "/plain.flac")
        let webp = Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8L".utf8) + [13, 0, 0, 0, 0x2F, 0, 0, 0, 0x10, 7, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 7, 0]
        try Data(webp).write(to: URL(fileURLWithPath: album + "/Folder.WEBP"))
        let art = try ArtStore(directory: dir.file("art"), musicFolders: [album])
        let facts = MediaScanner.readAll(try MediaScanner.list(roots: [album]), art: art).facts
        let hash = try #require(facts.first?.art, "the song got no cover")
        #expect(hash == XXH64.hex(webp))
        #expect(art.path(forHash: hash) == dir.file("art/\(hash).webp"))
        #expect(webp.withUnsafeBytes { ArtStore.mimeType(of: $0) } == "image/webp")

        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: album + "/ALBUMART.jpg"))
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: album + "/album.Png"))
        #expect(ArtStore.coverFiles(in: album) == [album + "/Folder.WEBP", album + "/album.Png", album + "/ALBUMART.jpg"])
    }
}

@Suite struct ArtStoreTests {
    let dir = TempDir("boomic-art")

    func entries(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func storesOncePerContent() throws {
        let art = try ArtStore(directory: dir.file("lib/art"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        let h1 = try art.store(png, mime: "image/png")
        let h2 = try art.store(png, mime: "image/png")
        let again = try ArtStore(directory: dir.file("lib/art/"))
        let h3 = try again.store(png, mime: "image/png")
        #expect(h1 == XXH64.hex(png) && h2 == h1 && h3 == h1)
        #expect(try entries(dir.file("lib/art")) == ["\(h1).png"])
        #expect(try bytes(of: dir.file("lib/art/\(h1).png")) == png)
        #expect(art.path(forHash: h1) == dir.file("lib/art/\(h1).png"))
        #expect(art.path(forHash: "0000000000000000") == nil)
    }

    @Test func extensionFromMimeElseFromTheBytes() throws {
        let art = try ArtStore(directory: dir.file("art"))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 9]
        let gif = Array("GIF89a...".utf8)
        let junk: [UInt8] = [1, 2, 3]
        let names = [try art.store(jpeg, mime: "") + ".jpg", try art.store(gif, mime: "application/octet-stream") + ".gif",
                     try art.store(junk, mime: "image/x-unknown") + ".bin", try art.store(junk, mime: "image/jpeg") + ".jpg"]
        #expect(try entries(dir.file("art")) == names.sorted())
    }

    @Test func rewritesAFileCutShortByACrash() throws {
        let art = try ArtStore(directory: dir.file("art"))
        let bytes1: [UInt8] = Array(repeating: 0xAB, count: 100)
        let hash = XXH64.hex(bytes1)
        try Data().write(to: URL(fileURLWithPath: dir.file("art/\(hash).png")))
        #expect(try art.store(bytes1, mime: "image/png") == hash)
        #expect(try bytes(of: dir.file("art/\(hash).png")) == bytes1)
    }

    @Test func concurrentStoresOfOnePictureLeaveOneFileAndNoTemporaries() throws {
        let art = try ArtStore(directory: dir.file("art"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47] + (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            _ = try? art.store(png, mime: "image/png")
        }
        #expect(try entries(dir.file("art")) == ["\(XXH64.hex(png)).png"])
    }

    @Test func unwritableFolderThrows() throws {
        try Data([1]).write(to: URL(fileURLWithPath: dir.file("file")))
        #expect(throws: MediaError.self) { try ArtStore(directory: dir.file("file/art")) }
        #expect(throws: MediaError.self) { try ArtStore(directory: dir.file("file")) }
    }

    @Test func folderCoverIsRememberedUntilForgotten() throws {
        let album = dir.file("album")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        let art = try ArtStore(directory: dir.file("art"), musicFolders: [album])
        #expect(art.folderCover(in: album) == nil)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 42]
        try Data(jpeg).write(to: URL(fileURLWithPath: album + "/front.jpg"))
        #expect(art.folderCover(in: album) == nil, "cached for the scan")
        art.forgetFolders()
        #expect(art.folderCover(in: album) == XXH64.hex(jpeg))
    }
}
