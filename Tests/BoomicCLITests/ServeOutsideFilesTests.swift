import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve` sends a client no byte of a file outside the music folders: a cover or a
/// playlist file that links out (to `/etc/shadow`) is neither listed nor read, however the
/// library came to know it; a FIFO named `cover.jpg` does not stop an `update` from finishing.
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3 is installed by scripts/setup"))
struct ServeOutsideFilesTests {
    static let secretLines = "root:$y$j9T$secret:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n"

    static let script = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    def hexed(d): return {k: (v.hex() if isinstance(v, bytes) else v) for k, v in d.items()}
    song = "Loose Files/no tags at all.flac"
    run("albumart", lambda: hexed(c.albumart(song)))
    run("readpicture", lambda: hexed(c.readpicture(song)))
    out["lsinfo"] = [x["playlist"] for x in c.lsinfo("") if "playlist" in x]
    out["lsinfo_lists"] = [x["playlist"] for x in c.lsinfo("Lists") if "playlist" in x]
    out["listall"] = [x["playlist"] for x in c.listall("") if "playlist" in x]
    for name in ("evil.m3u", "Lists/good.m3u", "Out/other.m3u"):
        run("listplaylist " + name, lambda: c.listplaylist(name))
        run("listplaylistinfo " + name, lambda: [x["file"] for x in c.listplaylistinfo(name)])
        run("load " + name, lambda: c.load(name) or c.playlist())
        c.clear()
    print(json.dumps(out))
    """#

    @Test func coversAndPlaylistsLinkingOutsideAreNeitherListedNorSent() throws {
        let box = try Sandbox()
        let secret = ImportOutsideFilesTests.secret
        try Data(secret).write(to: URL(fileURLWithPath: box.root + "/secret.jpg"))
        try Self.secretLines.write(toFile: box.root + "/shadow", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: box.file("Loose Files/cover.jpg"), withDestinationPath: box.root + "/secret.jpg")
        try FileManager.default.createSymbolicLink(atPath: box.file("evil.m3u"), withDestinationPath: box.root + "/shadow")
        // A folder linking outside, with a playlist in it: no file of it is read either.
        try FileManager.default.createDirectory(atPath: box.root + "/outside", withIntermediateDirectories: true)
        try "../Loose Files/no tags at all.flac\n".write(toFile: box.root + "/outside/other.m3u", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: box.file("Out"), withDestinationPath: box.root + "/outside")
        // A playlist inside, and a link to it inside: read as ever.
        try FileManager.default.createDirectory(atPath: box.file("Lists"), withIntermediateDirectories: true)
        try "../Loose Files/no tags at all.flac\n".write(toFile: box.file("Lists/good.m3u"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: box.file("Lists/linked.m3u"), withDestinationPath: "good.m3u")
        try box.importSamples()
        let server = try RunningServer(box)
        defer { _ = server.stop() }
        let out = try #require(try server.pythonJSON(Self.script) as? [String: Any])
        let text = "\(out)"
        let secretHex = secret.map { String(format: "%02x", $0) }.joined()
        #expect(!text.contains(secretHex), "the outside cover was sent: \(text)")
        #expect(!text.contains("root:") && !text.contains("daemon:"), "the outside playlist was read: \(text)")
        #expect(out["lsinfo"] as? [String] == [], "\(out["lsinfo"] ?? "")")
        #expect((out["listall"] as? [String])?.sorted() == ["Lists/good.m3u"], "\(out["listall"] ?? "")")
        for name in ["evil.m3u", "Out/other.m3u"] {
            for command in ["listplaylist", "listplaylistinfo", "load"] {
                let answer = "\(out["\(command) \(name)"] ?? "")"
                #expect(answer.contains("No such playlist"), "\(command) \(name): \(answer)")
            }
        }
        #expect(out["listplaylist Lists/good.m3u"] as? [String] == ["Loose Files/no tags at all.flac"], "\(out["listplaylist Lists/good.m3u"] ?? "")")
        #expect(out["load Lists/good.m3u"] as? [String] == ["file: Loose Files/no tags at all.flac"], "\(out["load Lists/good.m3u"] ?? "")")
    }

    static let update = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.timeout = 30; c.connect("127.0.0.1", port)
    w = mpd.MPDClient(); w.timeout = 30; w.idletimeout = 30; w.connect("127.0.0.1", port)
    job = c.update()
    # Each end of an update job is an `update` event: wait on them (30 s at most), not on a clock.
    try:
        while "updating_db" in c.status():
            w.idle("update")
        out["finished"] = True
    except Exception as e:
        out["finished"] = "still %s after 30 s (%s)" % (c.status().get("updating_db"), type(e).__name__)
    out["files"] = sorted(x["file"] for x in c.listall("Loose Files") if "file" in x)
    print(json.dumps(out))
    """#

    @Test func aFIFONamedCoverDoesNotHoldUpAnUpdate() throws {
        let box = try Sandbox()
        try box.importSamples()
        let server = try RunningServer(box)
        defer { _ = server.stop(within: 5) }
        // A new song beside the FIFO: the update reads it, and looks for its folder's cover.
        try FileManager.default.copyItem(atPath: box.file("Loose Files/no tags at all.flac"), toPath: box.file("Loose Files/new.flac"))
        try #require(mkfifo(box.file("Loose Files/cover.jpg"), 0o600) == 0)
        try #require(mkfifo(box.file("Loose Files/x.flac"), 0o600) == 0)
        let out = try #require(try server.pythonJSON(Self.update) as? [String: Any])
        #expect(out["finished"] as? Bool == true, "\(out["finished"] ?? "")\n\(server.serverLog)")
        #expect(out["files"] as? [String] == ["Loose Files/new.flac", "Loose Files/no tags at all.flac", "Loose Files/no tags at all.mp3",
                                              "Loose Files/no tags at all.wav"], "\(out["files"] ?? "")")
    }
}
