import BoomicTestSupport
import Foundation
import Testing

/// What an MPD client changes through `boomic serve` is a library change like any other:
/// stored playlists and stickers are transactions that `boomic history` shows and `boomic undo`
/// takes back; taglists are read-only playlists; `update` imports; `albumart` reads the store.
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServeLibraryTests {
    static let script = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.add("Miles Quartet/Blue Sketches")
    c.save("Evening")
    run("save_again", lambda: c.save("Evening"))
    c.playlistadd("Evening", "Old Timer/Retro Hits/01 Eight Bit Song.mp3")
    c.playlistmove("Evening", 3, 0)
    c.playlistdelete("Evening", 1)
    run("listplaylist", lambda: c.listplaylist("evening"))
    run("listplaylistinfo", lambda: [x["title"] for x in c.listplaylistinfo("Evening")])
    c.searchaddpl("Modal", "title", "modal")
    c.rename("Modal", "Modal Only")
    run("listplaylists", lambda: [p["playlist"] for p in c.listplaylists()])
    run("taglist_songs", lambda: len(c.listplaylist("taglist: Jazz")))
    run("taglist_edit", lambda: c.playlistclear("taglist: Jazz"))
    run("taglist_name", lambda: c.save("taglist: mine"))
    c.clear()
    c.load("Evening", "0:2")
    run("loaded", lambda: [x["title"] for x in c.playlistinfo()])
    c.rm("Modal Only")
    run("rm_missing", lambda: c.rm("Modal Only"))
    uri = "Miles Quartet/Blue Sketches/01 So Modal.flac"
    c.sticker_set("song", uri, "rating", "7")
    c.sticker_set("song", uri, "favorite", "1")
    run("sticker_get", lambda: c.sticker_get("song", uri, "rating"))
    run("sticker_list", lambda: c.sticker_list("song", uri))
    run("sticker_find", lambda: c.sticker_find("song", "Miles Quartet", "favorite"))
    c.sticker_set("song", uri, "playCount", "3")
    c.sticker_set("song", uri, "lastPlayed", "1700000000")
    run("sticker_other", lambda: c.sticker_get("song", uri, "playCount"))
    run("sticker_other_list", lambda: c.sticker_list("song", uri))
    run("sticker_other_find", lambda: c.sticker_find("song", "Miles Quartet", "lastPlayed"))
    run("sticker_bad_name", lambda: c.sticker_set("song", uri, "a=b", "x"))
    c.sticker_delete("song", uri, "favorite")
    run("sticker_gone", lambda: c.sticker_get("song", uri, "favorite"))
    art = c.albumart(uri)
    out["albumart"] = len(art["binary"])
    # What Cantata sends: the album's folder with a trailing slash; MPD looks in the folder a path is in.
    out["albumart_folder"] = [len(c.albumart(u)["binary"]) for u in ("Miles Quartet/Blue Sketches/", "Miles Quartet/Blue Sketches/cover.jpg")]
    pic = c.readpicture("Motörhead-ish/Ace of Spätz/01 Øverkill.mp3")
    out["readpicture"] = [pic.get("type"), len(pic.get("binary", b""))]
    run("albumart_none", lambda: c.albumart("Field Recordist/Backyard Sessions/01 Morning Birds.wav"))
    run("update", c.update)
    until("the update to end", lambda: "updating_db" not in c.status())
    out["updated"] = "updating_db" not in c.status()
    print(json.dumps(out))
    """#

    @Test func playlistsStickersUpdateAndArt() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        try box.succeed("taglist", "add", "Jazz", "+@genre:Jazz")
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.script) as? [String: Any])
        func value(_ key: String) -> String { out[key].map { "\($0)" } ?? "(missing)" }
        #expect(value("save_again").contains("[56@0] {save} Playlist already exists"), "\(value("save_again"))")
        #expect((out["listplaylist"] as? [String]) == ["Old Timer/Retro Hits/01 Eight Bit Song.mp3",
                                                      "Miles Quartet/Blue Sketches/02 Blue in Grey.flac",
                                                      "Miles Quartet/Blue Sketches/03 Flamenco Dusk.flac"], "\(value("listplaylist"))")
        #expect((out["listplaylists"] as? [String]) == ["Evening", "Modal Only", "taglist: Jazz"], "\(value("listplaylists"))")
        #expect((out["taglist_songs"] as? Int ?? 0) > 0, "\(value("taglist_songs"))")
        #expect(value("taglist_edit").contains("[4@0] {playlistclear}"), "\(value("taglist_edit"))")
        #expect(value("taglist_name").contains("[4@0] {save}"), "\(value("taglist_name"))")
        #expect((out["loaded"] as? [String])?.count == 2, "\(value("loaded"))")
        #expect(value("rm_missing").contains("[50@0] {rm} No such playlist"), "\(value("rm_missing"))")
        #expect(value("sticker_get") == "8", "7 of 10 is 4 stars, read back as 8: \(value("sticker_get"))")
        #expect(value("sticker_list").contains("rating") && value("sticker_list").contains("favorite"), "\(value("sticker_list"))")
        #expect(value("sticker_find").contains("01 So Modal.flac"), "\(value("sticker_find"))")
        // A client's own stickers (myMPD's play count and last play) are kept as it names them.
        #expect(value("sticker_other") == "3", "\(value("sticker_other"))")
        #expect(value("sticker_other_list").contains("playCount") && value("sticker_other_list").contains("lastPlayed")
                && value("sticker_other_list").contains("rating"), "\(value("sticker_other_list"))")
        #expect(value("sticker_other_find").contains("01 So Modal.flac") && value("sticker_other_find").contains("1700000000"),
                "\(value("sticker_other_find"))")
        #expect(value("sticker_bad_name").contains("[2@0] {sticker} bad sticker name"), "\(value("sticker_bad_name"))")
        #expect(value("sticker_gone").contains("[50@0] {sticker} no such sticker"), "\(value("sticker_gone"))")
        // python-mpd2 fetches the chunks and joins them: the whole stored picture.
        let stored = try FileManager.default.contentsOfDirectory(atPath: box.library + "/art").filter { $0.hasSuffix(".png") }
        let sizes = try stored.map { try FileManager.default.attributesOfItem(atPath: box.library + "/art/" + $0)[.size] as? Int ?? 0 }
        #expect(sizes.contains(out["albumart"] as? Int ?? -1), "\(value("albumart")) bytes, stored PNGs are \(sizes)")
        #expect((out["albumart_folder"] as? [Int]) == [out["albumart"] as? Int ?? -1, out["albumart"] as? Int ?? -1], "\(value("albumart_folder"))")
        #expect((out["readpicture"] as? [Any])?.first as? String == "image/jpeg", "\(value("readpicture"))")
        #expect(value("albumart_none").contains("[50@0] {albumart} No file exists"), "\(value("albumart_none"))")
        #expect(out["updated"] as? Bool == true)

        // Every change was a transaction, shown with the client's command, and can be undone.
        let history = try box.succeed("history").stdout
        #expect(history.contains("mpd save Evening") && history.contains("mpd sticker set rating"), "\(history)")
        let show = try box.succeed("info", "title:So Modal", "--json").stdout
        #expect(show.contains("\"rating\" : 4") || show.contains("\"rating\":4"), "\(show)")
        #expect(show.contains("\"playCount\" : \"3\"") || show.contains("\"playCount\":\"3\""), "\(show)")
        try box.succeed("undo", "-y")
        #expect(try box.succeed("playlist", "ls").stdout.contains("Evening"))
        _ = server.stop()
    }

    /// `update PATH` scans that folder only, as MPD does: a new album elsewhere waits for a
    /// whole update, and a file gone elsewhere is not marked missing.
    static let narrowUpdate = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    def update(*path):
        c.update(*path)
        until("the update to end", lambda: "updating_db" not in c.status())
    def files(): return sorted(x["file"] for x in c.listall() if "file" in x)
    update("New Album")
    out["after_narrow"] = files()
    update("Miles Quartet/Blue Sketches/01 So Modal.flac")
    out["after_file"] = files()
    run("outside", lambda: c.update("../etc"))
    update()
    out["after_whole"] = files()
    print(json.dumps(out))
    """#

    @Test func updateOfAFolderScansThatFolder() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let fm = FileManager.default
        let source = box.music + "/Miles Quartet/Blue Sketches/01 So Modal.flac"
        for folder in ["New Album", "Other Album"] {
            try fm.createDirectory(atPath: box.music + "/" + folder, withIntermediateDirectories: true)
            try fm.copyItem(atPath: source, toPath: box.music + "/" + folder + "/01 Copy.flac")
        }
        // Changed on disk, and gone: both outside the folders updated first.
        try fm.removeItem(atPath: box.music + "/Loose Files/no tags at all.flac")
        let out = try #require(try server.pythonJSON(Self.narrowUpdate) as? [String: Any])
        let narrow = out["after_narrow"] as? [String] ?? []
        #expect(narrow.contains("New Album/01 Copy.flac") && !narrow.contains("Other Album/01 Copy.flac"), "\(narrow)")
        #expect(narrow.contains("Loose Files/no tags at all.flac"), "a file gone outside the folder is not missing yet")
        #expect(out["after_file"] as? [String] == narrow, "a file's update scans its folder, which changed nothing")
        #expect("\(out["outside"] ?? "")".contains("[2@0] {update} Malformed path"), "\(out["outside"] ?? "")")
        let whole = out["after_whole"] as? [String] ?? []
        #expect(whole.contains("Other Album/01 Copy.flac") && !whole.contains("Loose Files/no tags at all.flac"), "\(whole)")
        _ = server.stop()
    }

    /// An update asked for while one runs waits its turn, as MPD queues it: `update A` then
    /// `update B` scans both, each answered with its own job number.
    static let queuedUpdates = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    out["jobs"] = [c.update("Album A"), c.update("Album B"), c.update("Album C")]
    until("the updates to end", lambda: "updating_db" not in c.status(), timeout=20)
    out["files"] = sorted(x["file"] for x in c.listall() if "file" in x and x["file"].startswith("Album"))
    print(json.dumps(out))
    """#

    @Test func anUpdateWhileOneRunsWaitsItsTurn() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let source = box.music + "/Miles Quartet/Blue Sketches/01 So Modal.flac"
        for folder in ["Album A", "Album B", "Album C"] {
            try FileManager.default.createDirectory(atPath: box.music + "/" + folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: box.music + "/" + folder + "/01 Copy.flac")
        }
        let out = try #require(try server.pythonJSON(Self.queuedUpdates) as? [String: Any])
        let jobs = (out["jobs"] as? [String] ?? []).compactMap { Int($0) }
        #expect(jobs.count == 3 && jobs == jobs.sorted() && Set(jobs).count == 3, "\(out)")
        #expect(out["files"] as? [String] == ["Album A/01 Copy.flac", "Album B/01 Copy.flac", "Album C/01 Copy.flac"], "\(out)")
        _ = server.stop()
    }

    /// A song whose file is deleted leaves the queue at the next update, as MPD drops it,
    /// instead of staying as an entry that cannot play; the others stay where they were.
    static let goneFromQueue = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.clear(); c.add("Miles Quartet")
    os.remove(sys.argv[2] + "/Miles Quartet/Blue Sketches/02 Blue in Grey.flac")
    c.update()
    until("the update to end", lambda: "updating_db" not in c.status(), timeout=20)
    queue = lambda: [x["file"] for x in c.playlistinfo()]
    until("the song to leave the queue", lambda: len(queue()) < 3)
    out["queue"] = queue()
    print(json.dumps(out))
    """#

    @Test func aDeletedSongLeavesTheQueueAtTheNextUpdate() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON("import os\n" + Self.goneFromQueue, box.music) as? [String: Any])
        #expect(out["queue"] as? [String] == ["Miles Quartet/Blue Sketches/01 So Modal.flac", "Miles Quartet/Blue Sketches/03 Flamenco Dusk.flac"],
                "\(out)")
        _ = server.stop()
    }

    /// A stored playlist's `Last-Modified` moves when it changes, so a client that keeps its
    /// songs until then (Cantata, M.A.L.P.) sees the change; another list's stays.
    static let listStamps = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.add("Miles Quartet"); c.save("One"); c.save("Two")
    stamps = lambda: {x["playlist"]: x["last-modified"] for x in c.listplaylists()}
    out["before"] = stamps()
    saved = int(time.time())
    # Stamps are whole seconds: the change comes in a second after the save's.
    until("the clock's next second", lambda: int(time.time()) > saved)
    c.playlistadd("One", "Loose Files/no tags at all.flac")
    until("One's stamp to move", lambda: stamps()["One"] != out["before"]["One"])
    out["after"] = stamps()
    print(json.dumps(out))
    """#

    @Test func aPlaylistsLastModifiedMovesWhenItChanges() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.listStamps) as? [String: Any])
        let before = out["before"] as? [String: String] ?? [:], after = out["after"] as? [String: String] ?? [:]
        #expect(after["One"] != nil && after["One"]! > before["One"] ?? "", "\(out)")
        #expect(after["Two"] == before["Two"], "\(out)")
        _ = server.stop()
    }
}
