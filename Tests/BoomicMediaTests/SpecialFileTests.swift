import BoomicCore
import BoomicMedia
import BoomicTestSupport
import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

/// Nothing the scanner or the art store opens can block it (a FIFO named `x.flac` or
/// `cover.jpg`), a cover file is read only from inside the music folders, and pictures get the
/// store's permissions.
@Suite struct SpecialFileTests {
    let dir = TempDir("boomic-special")

    /// `body`'s result, run on a thread of its own; nil when it has not returned within
    /// `seconds` (the thread is then left blocked: `release` is called to free it).
    func returning<R: Sendable>(within seconds: Double = 10, release: () -> Void = {}, _ body: @escaping @Sendable () -> R) -> R? {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<R>()
        Thread.detachNewThread {
            box.set(body())
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            release()
            return nil
        }
        return box.get()
    }

    /// Opens the FIFO's writing end without waiting (it succeeds only while a reader waits in
    /// `open`), which lets that reader go.
    static func releaseReader(of fifo: String) {
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }

    @Test func aFIFONamedLikeASongFailsAtOnce() throws {
        let fifo = dir.file("x.flac")
        try #require(mkfifo(fifo, 0o600) == 0)
        let listed = ListedFile(path: fifo, size: 0, mtime: 0)
        let art = try ArtStore(directory: dir.file("art"), musicFolders: [dir.path])
        let result = returning(release: { Self.releaseReader(of: fifo) }) { MediaScanner.read(listed, art: art) }
        let outcome = try #require(result, "reading a FIFO named x.flac did not return within 10 s")
        guard case .failure(let error) = outcome else { Issue.record("a FIFO read as a song"); return }
        #expect(error.errorDescription == "\(fifo): cannot open the file (it is not a regular file (a FIFO, a device, a socket or a folder))")
    }

    @Test func aFIFONamedCoverIsNoCover() throws {
        let album = dir.file("album")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        try #require(mkfifo(album + "/cover.jpg", 0o600) == 0)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 7]
        try Data(jpeg).write(to: URL(fileURLWithPath: album + "/folder.jpg"))
        let art = try ArtStore(directory: dir.file("art"), musicFolders: [album])
        let hash = returning(release: { Self.releaseReader(of: album + "/cover.jpg") }) { art.folderCover(in: album) }
        #expect(try #require(hash, "a FIFO named cover.jpg was waited for") == XXH64.hex(jpeg), "the next cover file is taken")
    }

    @Test func aCoverIsReadOnlyFromInsideTheMusicFolders() throws {
        let music = dir.file("music"), album = music + "/album", other = music + "/other"
        for folder in [album, other, dir.file("outside")] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let secret: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("secret".utf8)
        try Data(secret).write(to: URL(fileURLWithPath: dir.file("outside/secret.jpg")))
        try FileManager.default.createSymbolicLink(atPath: album + "/cover.jpg", withDestinationPath: dir.file("outside/secret.jpg"))
        // A folder linked in from outside: its files are outside too.
        try Data(secret).write(to: URL(fileURLWithPath: dir.file("outside/cover.jpg")))
        try FileManager.default.createSymbolicLink(atPath: music + "/linked", withDestinationPath: dir.file("outside"))
        // A link inside the music folders is a cover as any other.
        let inside: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("inside".utf8)
        try Data(inside).write(to: URL(fileURLWithPath: other + "/front.jpg"))
        try FileManager.default.createSymbolicLink(atPath: other + "/cover.jpg", withDestinationPath: "front.jpg")

        // The music folder itself reached through a link (a NAS) is still inside.
        try FileManager.default.createSymbolicLink(atPath: dir.file("nas"), withDestinationPath: music)
        let art = try ArtStore(directory: dir.file("art"), musicFolders: [dir.file("nas")])
        #expect(art.folderCover(in: album) == nil)
        #expect(art.folderCover(in: music + "/linked") == nil)
        #expect(art.folderCover(in: other) == XXH64.hex(inside))
        #expect(art.folderCover(in: dir.file("nas/other")) == XXH64.hex(inside))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("art")) == ["\(XXH64.hex(inside)).jpg"])
        // No music folders: no cover file at all.
        #expect(try ArtStore(directory: dir.file("art2")).folderCover(in: other) == nil)
    }

    @Test func theWalkMarksOnlyCoversTheStoreReads() throws {
        let music = dir.file("music")
        try FileManager.default.createDirectory(atPath: music + "/a", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.samples + "/Loose Files/no tags at all.flac", toPath: music + "/a/x.flac")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: dir.file("secret.jpg")))
        try FileManager.default.createSymbolicLink(atPath: music + "/a/cover.jpg", withDestinationPath: dir.file("secret.jpg"))
        try #require(mkfifo(music + "/a/folder.jpg", 0o600) == 0)
        try Data([4, 5]).write(to: URL(fileURLWithPath: music + "/a/front.jpg"))
        let marks = MediaScanner.walk([music]).covers
        let mark = try #require(marks[music + "/a"])
        #expect(mark.hasPrefix("front.jpg 2 ") && !mark.contains("|"), "\(mark)")
    }

    @Test func playlistWalkConfinedLeavesOutLinksOut() throws {
        let music = dir.file("music")
        try FileManager.default.createDirectory(atPath: music + "/lists", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.file("outside"), withIntermediateDirectories: true)
        try "x".write(toFile: dir.file("shadow"), atomically: true, encoding: .utf8)
        try "x".write(toFile: dir.file("outside/far.m3u"), atomically: true, encoding: .utf8)
        try "x".write(toFile: music + "/lists/good.m3u", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: music + "/evil.m3u", withDestinationPath: dir.file("shadow"))
        try FileManager.default.createSymbolicLink(atPath: music + "/out", withDestinationPath: dir.file("outside"))
        try FileManager.default.createSymbolicLink(atPath: music + "/again.m3u", withDestinationPath: "lists/good.m3u")
        let options = MediaScanner.Options(extensions: ["m3u"], confined: true)
        #expect(MediaScanner.walk([music], options: options).files.map(\.path) == [music + "/lists/good.m3u"])
        let open = MediaScanner.Options(extensions: ["m3u"])
        #expect(MediaScanner.walk([music], options: open).files.map(\.path).sorted()
                == [music + "/evil.m3u", music + "/lists/good.m3u", music + "/out/far.m3u"])
    }

    @Test func picturesTakeTheStoresPermissions() throws {
        // The folder it is made in decides, unless a mode is given: a private library's
        // pictures are private, whatever the umask.
        try FileManager.default.createDirectory(atPath: dir.file("private"), withIntermediateDirectories: true)
        try #require(chmod(dir.file("private"), 0o700) == 0)
        let art = try ArtStore(directory: dir.file("private/art"))
        #expect(art.fileMode == 0o600)
        let hash = try art.store([0xFF, 0xD8, 0xFF, 1], mime: "image/jpeg")
        #expect(try mode(dir.file("private/art")) == 0o700)
        #expect(try mode(dir.file("private/art/\(hash).jpg")) == 0o600)

        let given = try ArtStore(directory: dir.file("given"), fileMode: 0o640)
        let other = try given.store([0xFF, 0xD8, 0xFF, 2], mime: "image/jpeg")
        #expect(try mode(dir.file("given/\(other).jpg")) == 0o640)
        // A picture stored before with other permissions takes the store's when stored again.
        try #require(chmod(dir.file("given/\(other).jpg"), 0o644) == 0)
        _ = try ArtStore(directory: dir.file("given"), fileMode: 0o640).store([0xFF, 0xD8, 0xFF, 2], mime: "image/jpeg")
        #expect(try mode(dir.file("given/\(other).jpg")) == 0o640)
    }

    func mode(_ path: String) throws -> mode_t {
        var st = stat()
        try #require(stat(path, &st) == 0, "\(path): \(String(cString: strerror(errno)))")
        return st.st_mode & 0o7777
    }
}

/// One value handed from a thread to the test that waits for it.
private final class ResultBox<R: Sendable>: Sendable {
    private let value = Mutex<R?>(nil)
    func set(_ v: R) { value.withLock { $0 = v } }
    func get() -> R? { value.withLock { $0 } }
}
