import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve` names a CUE image's tracks as MPD's cue playlist plugin does (checked against
/// Debian's mpd 0.23 with a UTF-8 copy of the same sheet: `lsinfo Album/image.cue` lists
/// `Album/image.cue/track0001` … with `Range: 0.000-2.133`, stickers and `add` take those URIs).
/// The image itself is not listed (a documented difference: MPD lists it beside its sheet).
/// `Range:` rounds to the millisecond (`4.067`), where MPD keeps a sheet's times in whole
/// milliseconds cut short (`4.066`).
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServeCueTests {
    static let script = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    cue = sys.argv[2]
    run("folder", lambda: [{k: v for k, v in x.items() if k in ("file", "directory", "playlist")} for x in c.lsinfo("Album")])
    run("tracks", lambda: [{k: v for k, v in x.items() if k in ("file", "range", "title", "track")} for x in c.lsinfo(cue)])
    run("sticker", lambda: c.sticker_set("song", cue + "/track0002", "rating", "8"))
    run("stickers", lambda: c.sticker_list("song", cue + "/track0002"))
    run("add", lambda: c.add(cue + "/track0002"))
    run("queue", lambda: [{k: v for k, v in x.items() if k in ("file", "range", "title")} for x in c.playlistinfo()])
    print(json.dumps(out))
    """#

    @Test func tracksHaveMPDsURIsAndStickersNameThem() throws {
        let box = try Sandbox(samples: false)
        try CueImage.make(in: box.music + "/Album")
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let cue = "Album/" + CueImage.sheet
        let run = try server.python(Self.script, cue)
        #expect(server.stop().status == 0)
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        #expect(out["folder"] as? [[String: String]] == [["directory": cue]], "\(out)")
        let uris = (1...3).map { cue + "/track000\($0)" }
        #expect(out["tracks"] as? [[String: String]] == [
            ["file": uris[0], "range": "0.000-2.133", "title": "Café", "track": "1"],
            ["file": uris[1], "range": "2.133-4.067", "title": "Naïve", "track": "2"],
            ["file": uris[2], "range": "4.067-", "title": "Été", "track": "3"],
        ], "\(out)")
        #expect(out["stickers"] as? [String: String] == ["rating": "8"], "\(out)")
        #expect(out["queue"] as? [[String: String]] == [["file": uris[1], "range": "2.133-4.067", "title": "Naïve"]], "\(out)")
        #expect(try box.song("title:Naïve").rating == 4, "MPD's rating 8 is four stars")
    }

    /// An MP3's chapters are named as an embedded sheet's tracks are (`book.mp3/track0002`):
    /// each its own URI, which `add` and stickers take.
    @Test func chaptersHaveURIsOfTheirOwn() throws {
        let box = try Sandbox(samples: false)
        try ChapterImportTests.book(in: box.music + "/Books")
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let run = try server.python(Self.script, "Books/book.mp3")
        #expect(server.stop().status == 0)
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        let uris = (1...3).map { "Books/book.mp3/track000\($0)" }
        #expect((out["tracks"] as? [[String: String]])?.map { $0["file"] ?? "" } == uris, "\(out)")
        #expect((out["tracks"] as? [[String: String]])?.map { $0["title"] ?? "" } == ChapterImportTests.titles, "\(out)")
        #expect((out["queue"] as? [[String: String]])?.map { $0["file"] ?? "" } == [uris[1]], "\(out)")
        #expect(try box.song("title:The Middle").rating == 4, "MPD's rating 8 is four stars")
    }
}
