import BoomicTestSupport
import Foundation
import Testing

/// What `boomic import` copies into the library is read only from regular files inside the
/// music folders: a `cover.jpg` linking to `/etc/shadow` stays out of `art/`, a FIFO named
/// `cover.jpg` or `x.flac` cannot hang the import, and the pictures it stores get the library's
/// permissions.
@Suite(.serialized) struct ImportOutsideFilesTests {
    /// A JPEG-looking file outside the music folder (as a downloaded archive's link may name one).
    static let secret: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("the contents of /etc/shadow".utf8)

    /// Every file in the library's `art/`, with its bytes.
    func stored(_ box: Sandbox) throws -> [String: [UInt8]] {
        let art = box.library + "/art"
        var out: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: art)) ?? [] {
            out[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: art + "/" + name)))
        }
        return out
    }

    /// Runs `boomic ARGS…` and gives its run, or nil (having killed it) when it has not ended
    /// by `deadline`: a hang is a failure, never a test that does not end.
    static func run(_ box: Sandbox, _ arguments: [String], deadline seconds: Double = 30) throws -> ProcessRun? {
        let out = box.root + "/run-\(UUID().uuidString.prefix(6))"
        _ = FileManager.default.createFile(atPath: out + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: out + ".err", contents: nil)
        let process = try ChildProcess.start(box.executable, ["--library", box.library] + arguments,
                                             environment: ["XDG_DATA_HOME": box.root + "/xdg"], directory: box.root,
                                             stdout: out + ".out", stderr: out + ".err")
        try? waitUntil("boomic to finish", timeout: .milliseconds(Int(seconds * 1000))) { !process.isRunning }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        let text = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return ProcessRun(arguments: arguments, status: process.terminationStatus,
                          signaled: process.terminationReason == .uncaughtSignal, stdout: text(out + ".out"), stderr: text(out + ".err"))
    }

    @Test func aCoverLinkingOutsideTheMusicFolderIsNotCopied() throws {
        let box = try Sandbox()
        try Data(Self.secret).write(to: URL(fileURLWithPath: box.root + "/secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: box.file("Loose Files/cover.jpg"), withDestinationPath: box.root + "/secret.jpg")
        // A link inside the music folder is a cover as any other: another album's picture.
        let inside = box.file("Дмитрий Соколов/Зимняя дорога/cover.jpg")
        try FileManager.default.createDirectory(atPath: box.file("Linked"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: box.file("Loose Files/no tags at all.flac"), toPath: box.file("Linked/song.flac"))
        try FileManager.default.createSymbolicLink(atPath: box.file("Linked/cover.jpg"), withDestinationPath: "../Дмитрий Соколов/Зимняя дорога/cover.jpg")
        try box.importSamples()

        let art = try stored(box)
        #expect(!art.values.contains(Self.secret), "the outside file was copied into art/: \(art.keys.sorted())")
        for song in try box.songs("path:" + box.file("Loose Files")) {
            #expect(song.art == nil, "\(song.path) took the outside file as its cover: \(song.art ?? "")")
        }
        let linked = try box.song("path:" + box.file("Linked/song.flac"))
        let picture = [UInt8](try Data(contentsOf: URL(fileURLWithPath: inside)))
        #expect(linked.art.flatMap { hash in art.first { $0.key.hasPrefix(hash) }?.value } == picture,
                "a cover linking inside the music folder: \(linked.art ?? "none")")
    }

    /// A cover linking outside, added after the first import, is not taken at the rescan either.
    @Test func aRescanDropsACoverThatLinksOutside() throws {
        let box = try Sandbox()
        try box.importSamples()
        try Data(Self.secret).write(to: URL(fileURLWithPath: box.root + "/secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: box.file("Loose Files/cover.jpg"), withDestinationPath: box.root + "/secret.jpg")
        try box.succeed("import")
        #expect(try box.songs("path:" + box.file("Loose Files")).allSatisfy { $0.art == nil })
        #expect(!(try stored(box)).values.contains(Self.secret))
    }

    @Test func aFIFONamedCoverOrSongDoesNotHangTheImport() throws {
        let box = try Sandbox()
        try #require(mkfifo(box.file("Loose Files/cover.jpg"), 0o600) == 0)
        try #require(mkfifo(box.file("Loose Files/x.flac"), 0o600) == 0)
        try #require(mkfifo(box.root + "/outside.flac", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: box.file("Loose Files/linked.flac"), withDestinationPath: box.root + "/outside.flac")
        let run = try #require(try Self.run(box, ["import", box.music]), "boomic import did not end within 30 s")
        #expect(run.succeeded, "\(run)")
        #expect(try box.songs("path:" + box.file("Loose Files")).map { ($0.path as NSString).lastPathComponent }.sorted()
                == ["no tags at all.flac", "no tags at all.mp3", "no tags at all.wav"])
    }

    /// Pictures get the permissions the library's own files have: a library made private
    /// (`chmod 600 library.sqlite`, `chmod 700` its folder) keeps its pictures private too.
    @Test func artTakesTheLibrarysPermissions() throws {
        let box = try Sandbox()
        try box.succeed("init", box.music)
        try #require(chmod(box.library + "/library.sqlite", 0o600) == 0 && chmod(box.library, 0o700) == 0)
        try box.succeed("import")
        let art = box.library + "/art"
        var st = stat()
        try #require(stat(art, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o700, "art/ is \(String(st.st_mode & 0o7777, radix: 8))")
        let names = try FileManager.default.contentsOfDirectory(atPath: art)
        #expect(!names.isEmpty)
        for name in names {
            try #require(stat(art + "/" + name, &st) == 0)
            #expect(st.st_mode & 0o7777 == 0o600, "\(name) is \(String(st.st_mode & 0o7777, radix: 8))")
        }
        // Shared again (the default umask's modes), a picture stored since is readable by all.
        try #require(chmod(box.library + "/library.sqlite", 0o644) == 0 && chmod(box.library, 0o755) == 0)
        try FileManager.default.createDirectory(atPath: box.file("New"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: box.file("Loose Files/no tags at all.flac"), toPath: box.file("New/a.flac"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: URL(fileURLWithPath: box.file("New/cover.jpg")))
        try box.succeed("import")
        let hash = try #require(try box.song("path:" + box.file("New/a.flac")).art)
        let added = try #require(try FileManager.default.contentsOfDirectory(atPath: art).first { $0.hasPrefix(hash) })
        try #require(stat(art + "/" + added, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o644, "\(added) is \(String(st.st_mode & 0o7777, radix: 8))")
    }
}
