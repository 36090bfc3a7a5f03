import BoomicTestSupport
import Foundation
import Testing

/// `albumart` is a folder's cover file, as in MPD: the same picture for every song of the album,
/// also where a song embeds one of its own (which `readpicture` gives); a cover replaced on disk
/// shows at once, as MPD reads the file at each request; without a cover file, the song's own.
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3 is installed by scripts/setup"))
struct ServeAlbumArtTests {
    /// Each request's picture, read whole through its chunks: its size, `type:` and bytes (hex).
    static let script = RunningServer.pythonPrelude + #"""
    import socket
    s = socket.create_connection(("127.0.0.1", port)); f = s.makefile("rwb", buffering=0); f.readline()
    def picture(command, uri):
        data, offset, size, kind = b"", 0, None, None
        while size is None or offset < size:
            f.write(('%s "%s" %d\n' % (command, uri, offset)).encode())
            head = {}
            while True:
                line = f.readline().decode()
                if line.startswith("ACK"): return {"error": line.strip()}
                if line == "OK\n": return {"size": 0, "type": None, "hex": ""}
                key, _, value = line.rstrip("\n").partition(": ")
                head[key] = value
                if key == "binary": break
            chunk = f.read(int(head["binary"])); f.readline(); f.readline()  # the chunk, its newline, OK
            size, kind = int(head["size"]), head.get("type", kind)
            data += chunk; offset += len(chunk)
        return {"size": size, "type": kind, "hex": data.hex()}
    for name in sys.argv[2:]:
        command, _, uri = name.partition(" ")
        out[name] = picture(command, uri)
    print(json.dumps(out))
    """#

    static let album = "Miles Quartet/Blue Sketches"

    func hex(_ path: String) throws -> String {
        try Data(contentsOf: URL(fileURLWithPath: path)).map { String(format: "%02x", $0) }.joined()
    }

    /// A picture's first bytes and size, for a message that fits a line.
    func brief(_ hex: String?) -> String { hex.map { "\($0.prefix(16))… (\($0.count / 2) bytes)" } ?? "none" }

    @Test func albumartIsTheFoldersCoverFile() throws {
        let box = try Sandbox()
        let folder = box.music + "/" + Self.album
        // A cover file beside songs that embed a picture of their own (a PNG).
        try FileManager.default.copyItem(atPath: box.music + "/Дмитрий Соколов/Зимняя дорога/cover.jpg", toPath: folder + "/cover.jpg")
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        defer { _ = server.stop() }
        let song = Self.album + "/01 So Modal.flac"
        let asked = ["albumart \(song)", "albumart \(Self.album)/", "albumart \(Self.album)/cover.jpg", "readpicture \(song)", "albumart nosuch/x.flac"]
        var out = try #require(try server.pythonJSON(Self.script, asked) as? [String: [String: Any]])
        let cover = try hex(folder + "/cover.jpg")
        for name in asked.prefix(3) {
            let got = out[name]?["hex"] as? String, isCover = got == cover
            #expect(isCover, "\(name): \(brief(got)), not the folder's cover.jpg, \(brief(cover))")
        }
        #expect(out[asked[3]]?["type"] as? String == "image/png" && (out[asked[3]]?["hex"] as? String)?.hasPrefix("89504e47") == true,
                "readpicture: the song's own (embedded PNG): \(out[asked[3]] ?? [:])")
        #expect(out[asked[4]]?["error"] as? String == "ACK [50@0] {albumart} No file exists", "\(out[asked[4]] ?? [:])")

        // Replaced on disk, with no import: the new one, as MPD reads it.
        try Data("not the first cover".utf8).write(to: URL(fileURLWithPath: folder + "/cover.jpg"))
        out = try #require(try server.pythonJSON(Self.script, [asked[0]]) as? [String: [String: Any]])
        let replaced = try hex(folder + "/cover.jpg"), got = out[asked[0]]?["hex"] as? String, isNew = got == replaced
        #expect(isNew, "after the cover was replaced: \(brief(got)), not \(brief(replaced))")
        // Gone: the song's own picture again.
        try FileManager.default.removeItem(atPath: folder + "/cover.jpg")
        out = try #require(try server.pythonJSON(Self.script, [asked[0]]) as? [String: [String: Any]])
        let own = out[asked[0]]?["hex"] as? String, isPNG = own?.hasPrefix("89504e47") == true
        #expect(isPNG, "after the cover was removed: \(brief(own)), not the song's own PNG")

        // A cover that links outside the music folder is not sent; one that links inside is.
        try "secret".write(toFile: box.root + "/secret.jpg", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/cover.jpg", withDestinationPath: box.root + "/secret.jpg")
        out = try #require(try server.pythonJSON(Self.script, [asked[0]]) as? [String: [String: Any]])
        let outside = out[asked[0]]?["hex"] as? String, notSent = outside?.hasPrefix("89504e47") == true
        #expect(notSent, "a cover linking outside the music folder: \(brief(outside)), not the song's own PNG")
        try FileManager.default.removeItem(atPath: folder + "/cover.jpg")
        let inside = box.music + "/Дмитрий Соколов/Зимняя дорога/cover.jpg"
        try FileManager.default.createSymbolicLink(atPath: folder + "/cover.jpg", withDestinationPath: inside)
        out = try #require(try server.pythonJSON(Self.script, [asked[0]]) as? [String: [String: Any]])
        let linked = out[asked[0]]?["hex"] as? String, isLinked = try linked == hex(inside)
        #expect(isLinked, "a cover linking inside the music folder: \(brief(linked))")
    }

    /// A folder whose only cover is `Folder.WEBP`: the import gives its songs that picture,
    /// stored as WebP, and `albumart` sends it.
    @Test func aFolderWEBPIsTheFoldersCover() throws {
        let box = try Sandbox()
        let folder = box.music + "/WebP Album"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: box.music + "/Loose Files/no tags at all.flac", toPath: folder + "/song.flac")
        // A 1×1 lossless WebP.
        let webp = Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8L".utf8) + [13, 0, 0, 0, 0x2F, 0, 0, 0, 0x10, 7, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 7, 0]
        try Data(webp).write(to: URL(fileURLWithPath: folder + "/Folder.WEBP"))
        try box.succeed("import", box.music)
        let hash = try #require(try box.song("path:" + folder + "/song.flac").art, "the import gave the song no cover")
        let stored = FileManager.default.contents(atPath: box.library + "/art/\(hash).webp").map { [UInt8]($0) }
        #expect(stored == webp, "the cover is not stored as art/\(hash).webp")

        let server = try RunningServer(box)
        defer { _ = server.stop() }
        let asked = "albumart WebP Album/song.flac"
        let out = try #require(try server.pythonJSON(Self.script, [asked]) as? [String: [String: Any]])
        let got = out[asked]?["hex"] as? String, isCover = try got == hex(folder + "/Folder.WEBP")
        #expect(isCover, "albumart: \(brief(got)), not the folder's Folder.WEBP: \(out[asked] ?? [:])")
    }
}
