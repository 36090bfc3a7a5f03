import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve` walked by python-mpd2, the client library most MPD tools are written with:
/// the command list of the issue, with the answers checked in Swift from the JSON the script
/// prints; errors, passwords and hostile input over a raw socket.
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServePythonTests {
    static let walk = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient()
    c.connect("127.0.0.1", port)
    run("mpd_version", lambda: c.mpd_version)
    run("status", c.status)
    run("stats", c.stats)
    run("tagtypes", c.tagtypes)
    run("commands", c.commands)
    run("notcommands", c.notcommands)
    run("urlhandlers", c.urlhandlers)
    run("decoders", lambda: [d["plugin"] for d in c.decoders()])
    run("lsinfo", lambda: [x.get("directory") or x.get("file") for x in c.lsinfo()])
    run("listall", lambda: len(c.listall()))
    run("listallinfo", lambda: len([x for x in c.listallinfo() if "file" in x]))
    run("listfiles", lambda: [x.get("file") for x in c.listfiles("Miles Quartet/Blue Sketches")])
    run("readcomments", lambda: c.readcomments("Miles Quartet/Blue Sketches/01 So Modal.flac"))
    run("readcomments_outside", lambda: c.readcomments("../music/Miles Quartet/Blue Sketches/01 So Modal.flac"))
    run("find_pairs", lambda: [x["title"] for x in c.find("album", "Blue Sketches")])
    run("find_expr", lambda: [x["title"] for x in c.find("((album == 'Blue Sketches') AND (title contains 'Blue'))")])
    run("find_not", lambda: len(c.find("(!(album == 'Blue Sketches'))")))
    run("search", lambda: [x["title"] for x in c.search("title", "MODAL")])
    run("find_base", lambda: len(c.find("(base 'Miles Quartet')")))
    run("find_window", lambda: [x["title"] for x in c.find("album", "Blue Sketches", "window", "1:2")])
    run("count", lambda: c.count("album", "Blue Sketches"))
    run("count_group", lambda: c.count("(album == 'Blue Sketches')", "group", "artist"))
    run("list_album", lambda: c.list("album", "(artist == 'Miles Quartet')"))
    run("list_group", lambda: c.list("album", "group", "albumartist")[:3])
    run("list_two_groups", lambda: [list(d.keys()) for d in c.list("genre", "group", "artist", "group", "album")])
    run("bad_filter", lambda: c.find("(nosuchtag == 'x')"))
    c.findadd("album", "Blue Sketches")
    run("addid", lambda: c.addid("Miles Quartet/Blue Sketches/02 Blue in Grey.flac", 0))
    run("playlistinfo", lambda: [(x["pos"], x["title"]) for x in c.playlistinfo()])
    run("playlistid", lambda: [x["id"] for x in c.playlistid()])
    v = int(c.status()["playlist"])
    c.deleteid(int(out["addid"]))
    run("plchanges", lambda: [x["title"] for x in c.plchanges(v)])
    run("plchangesposid", lambda: c.plchangesposid(0))
    c.move(0, 2)
    c.swap(0, 1)
    ids = [x["id"] for x in c.playlistid()]
    c.moveid(ids[0], 2)
    c.swapid(ids[1], ids[2])
    run("after_moves", lambda: [x["title"] for x in c.playlistinfo()])
    run("playlistfind", lambda: [x["title"] for x in c.playlistfind("title", "So Modal")])
    run("playlistsearch", lambda: [x["title"] for x in c.playlistsearch("title", "modal")])
    c.prio(5, "0:1")
    c.prioid(7, ids[1])
    run("prios", lambda: sorted(x.get("prio", "0") for x in c.playlistinfo()))
    run("rangeid", lambda: c.rangeid(ids[1], "0:600"))  # past the song's end: it plays whole
    c.play(0)
    run("state_play", lambda: c.status()["state"])
    c.pause(1)
    run("state_pause", lambda: c.status()["state"])
    run("rangeid_current", lambda: c.rangeid(c.status()["songid"], "0:1"))
    run("rangeid_past_end", lambda: c.rangeid([x["id"] for x in c.playlistid() if x["id"] != c.status()["songid"]][0], "9999:"))
    c.setvol(50)
    run("audio_at_half_volume", lambda: c.status()["audio"])
    c.seek(1, 1.0)
    run("seek", lambda: (c.status()["song"], round(float(c.status()["elapsed"]))))
    c.seekid(ids[1], 0.5)
    c.seekcur("+0.5")
    run("seekcur", lambda: round(float(c.status()["elapsed"]), 1))
    c.next()
    c.previous()
    run("song_after_next_prev", lambda: c.status()["song"])
    c.playid(ids[2])
    run("playid", lambda: c.status()["songid"])
    c.stop()
    run("state_stop", lambda: c.status()["state"])
    c.setvol(30)
    run("getvol", lambda: c.status()["volume"])
    c.random(1); c.repeat(1); c.single(1); c.consume(1); c.crossfade(0)
    s = c.status()
    run("options", lambda: [s["random"], s["repeat"], s["single"], s["consume"]])
    c.single("oneshot")
    run("oneshot", lambda: c.status()["single"])
    c.replay_gain_mode("album")
    run("replay_gain_status", lambda: c.replay_gain_status())
    run("outputs", lambda: [(o["outputid"], o["outputenabled"]) for o in c.outputs()])
    c.disableoutput(0); c.enableoutput(0); c.toggleoutput(0)
    run("bad_output", lambda: c.enableoutput(7))
    c.subscribe("chat")
    run("channels", c.channels)
    c.sendmessage("chat", "hello")
    run("readmessages", c.readmessages)
    c.unsubscribe("chat")
    run("listmounts", c.listmounts)
    run("listneighbors", c.listneighbors)
    run("listpartitions", c.listpartitions)
    run("config_over_tcp", c.config)
    c.clearerror()
    c.command_list_ok_begin()
    c.status(); c.currentsong(); c.ping()
    run("command_list", lambda: len(c.command_list_end()))
    got = {}
    t = threading.Thread(target=lambda: got.update(idle=c.idle("options")))
    t.start()  # sent before or after the change, the idle answers it: kept since c connected
    c2 = mpd.MPDClient(); c2.connect("127.0.0.1", port); c2.random(0); c2.disconnect()
    t.join(5)
    out["idle"] = got.get("idle", "still waiting")
    c.save("Window")
    run("listplaylist_all", lambda: len(c.listplaylist("Window")))
    run("listplaylist_window", lambda: [len(c.listplaylist("Window", "1:2")), len(c.listplaylistinfo("Window", "1:")), len(c.listplaylist("Window", "9:"))])
    c.rm("Window")
    c.shuffle()
    c.clear()
    run("cleared", lambda: c.status()["playlistlength"])
    run("bad_index", lambda: c.play(99))
    run("bad_id", lambda: c.playid(9999))
    run("bad_number", lambda: c.setvol("loud"))
    c.close()
    print(json.dumps(out))
    """#

    /// What each change tells an idle client, as MPD tells it: `playlist` only when the
    /// queue's entries change (not for play, pause or an option, which made clients refetch the
    /// queue), and a rating `sticker`, not `database` (on which clients reload their library).
    static let idle = RunningServer.pythonPrelude + RunningServer.pythonIdleWatch + #"""
    def told(action, settled=lambda: True, expect=()):
        return sorted(set(watch.told(action, settled, expect)))
    uri = "Miles Quartet/Blue Sketches/01 So Modal.flac"
    out["add"] = told(lambda: c.add("Miles Quartet/Blue Sketches"))
    out["random"] = told(lambda: c.random(1))
    out["repeat"] = told(lambda: c.repeat(1))
    out["crossfade"] = told(lambda: c.crossfade(2))
    out["play"] = told(lambda: c.play(0), lambda: c.status()["state"] == "play")
    out["pause"] = told(lambda: c.pause(1), lambda: c.status()["state"] == "pause")
    out["move"] = told(lambda: c.move(0, 2))
    # A sticker is told after its commit, which the answer does not wait for: the sync point
    # is its idle event.
    out["rating"] = told(lambda: c.sticker_set("song", uri, "rating", "6"), expect=["sticker"])
    out["own_sticker"] = told(lambda: c.sticker_set("song", uri, "playCount", "2"), expect=["sticker"])
    out["stop"] = told(lambda: c.stop(), lambda: c.status()["state"] == "stop")
    out["clear"] = told(lambda: c.clear())
    out["disable"] = told(lambda: c.disableoutput(0))
    out["enable"] = told(lambda: c.enableoutput(0))
    # Songs of a second that play to their end: the plays are counted (the `playcount`
    # sticker), but a client is told `player`, not `sticker`, at each song change.
    def play_short():
        c.clear(); c.add("Edge Case Orchestra/Strange Titles"); c.play(0)
    c.random(0); c.repeat(0)
    def counted():
        try: return c.sticker_get("song", "Edge Case Orchestra/Strange Titles/01 Live_Dead.flac", "playcount") == "1"
        except mpd.CommandError: return False
    out["played"] = told(play_short, lambda: counted() and c.status().get("song") == "1")
    out["playcount"] = [c.sticker_get("song", "Edge Case Orchestra/Strange Titles/01 Live_Dead.flac", "playcount")]
    print(json.dumps(out))
    """#

    @Test func idleTellsWhatChangedAsMPDDoes() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.idle) as? [String: [String]])
        #expect(out["add"] == ["playlist"], "\(out)")
        #expect(out["random"] == ["options"], "\(out)")
        #expect(out["repeat"] == ["options"], "\(out)")
        #expect(out["crossfade"] == ["options"], "\(out)")
        #expect(out["play"] == ["player"], "\(out)")
        #expect(out["pause"] == ["player"], "\(out)")
        #expect(out["move"] == ["playlist"], "\(out)")
        #expect(out["rating"] == ["sticker"], "\(out)")
        #expect(out["own_sticker"] == ["sticker"], "\(out)")
        // Stopping a song that played records it (a skip), which tells no `sticker`.
        #expect(out["stop"] == ["player"], "\(out)")
        #expect(out["clear"] == ["player", "playlist"] || out["clear"] == ["playlist"], "\(out)")
        // The null output has no mixer: MPD tells `mixer` only for one that has.
        #expect(out["disable"] == ["output"] && out["enable"] == ["output"], "\(out)")
        #expect(out["played"] == ["player", "playlist"] && out["playcount"] == ["1"], "\(out)")
    }

    /// The `playlist` version moves when the queue's entries change, as MPD's does: playing,
    /// skipping, pausing and the modes leave it, so a client that reloads the queue when it
    /// moves does not reload it at every skip.
    static let version = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.add("")
    v = lambda: int(c.status()["playlist"])
    before = v()
    c.play(0); c.next(); c.pause(1); c.pause(0); c.previous(); c.repeat(1); c.random(1); c.single(1); c.consume(0); c.stop()
    out["player"] = v() - before
    c.prio(5, 1)
    out["prio"] = v() - before
    print(json.dumps(out))
    """#

    /// A skip, a stop, a resume tell an idle client `player` once, as MPD does (a skip told it
    /// three times: the command, the song's end, the next one's start), and a `clear` while
    /// stopped tells `playlist` alone, even of an empty queue; watched as `mpc idleloop` watches.
    static let skips = RunningServer.pythonPrelude + RunningServer.pythonIdleWatch + #"""
    told = watch.told
    st = c.status
    c.add("Miles Quartet"); c.play(0)  # songs of 2 s: none ends by itself while one is watched
    until("the first song to play", lambda: st()["state"] == "play")
    out["next"] = told(c.next, lambda: st().get("song") == "1")
    out["previous"] = told(c.previous, lambda: st().get("song") == "0")
    out["stop"] = told(c.stop, lambda: st()["state"] == "stop")
    out["clear"] = told(c.clear, lambda: st()["playlistlength"] == "0")
    out["clear of nothing"] = told(c.clear)
    c.add("Miles Quartet"); c.play(0); c.pause(1); c.seek(1, 0.5)
    until("the seek to land", lambda: st().get("song") == "1" and st()["state"] == "pause")
    out["resume"] = told(lambda: c.pause(0), lambda: st()["state"] == "play")
    c.pause(1)
    until("the pause", lambda: st()["state"] == "pause")
    # Plays the next song, as MPD does: one change.
    out["next while paused"] = told(c.next, lambda: st().get("song") == "2" and st()["state"] == "play")
    c.stop(); v = int(c.status()["volume"])
    out["same volume"] = told(lambda: c.setvol(v))
    # A song that ends by itself: its end and the next one's start are one change, told once.
    c.clear(); c.add("Edge Case Orchestra/Strange Titles")  # songs of 1 s
    c.play(0)
    until("the first song to play", lambda: st().get("song") == "0" and st()["state"] == "play")
    watch.told(lambda: None)
    second = lambda: st().get("song") == "1" and st()["state"] == "play"
    # On a loaded machine the 1-s song may have ended before the watch was ready: then there is
    # no change to watch (RoomFeedTests tells it in process, on the player's events).
    if st().get("song") == "0":
        # Told from the player's events, which may reach idle clients a little after status
        # shows the new song: the watch waits for the event itself.
        out["song change"] = [x for x in told(lambda: None, second, expect=("player",)) if x == "player"]
    print(json.dumps(out))
    """#

    @Test func aSkipIsToldOnce() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.skips) as? [String: [String]])
        for action in ["next", "previous", "stop", "resume", "next while paused"] {
            #expect(out[action]?.filter { $0 == "player" }.count == 1, "\(action): \(out)")
        }
        #expect(out["clear"] == ["playlist"], "\(out)")
        #expect(out["clear of nothing"] == ["playlist"], "as MPD tells it: \(out)")
        // (The stop's play count, a sticker, may come late.)
        #expect(out["same volume"]?.filter { $0 != "sticker" } == ["mixer"], "as MPD tells it: \(out)")
        #expect(out["song change"] == nil || out["song change"] == ["player"], "one song change: \(out)")
    }

    @Test func thePlaylistVersionMovesWithTheEntriesOnly() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.version) as? [String: Int])
        #expect(out == ["player": 0, "prio": 1], "\(out)")
    }

    /// A song that cannot be played (damaged since it was imported) is named in `status` as
    /// MPD names it, stays current, and `clearerror` clears it.
    static let failure = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.clear(); c.add(sys.argv[2]); c.play(0)
    until("the player to fail on the damaged song", lambda: "error" in c.status())
    st = c.status()
    out["status"] = [st.get("state"), st.get("song"), st.get("error")]
    out["current"] = c.currentsong().get("file")
    c.clearerror()
    out["cleared"] = c.status().get("error")
    print(json.dumps(out))
    """#

    @Test func aSongThatCannotBePlayedIsStatusError() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let uri = "Loose Files/no tags at all.flac"
        let path = box.music + "/" + uri
        // Damaged in place, size and time kept: the library still has it.
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = try #require(attributes[.size] as? Int)
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: path)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.failure, uri) as? [String: Any])
        #expect(out["status"] as? [String?] == ["stop", "0", "Failed to decode \(uri)"], "\(out)")
        #expect(out["current"] as? String == uri, "\(out)")
        #expect(out["cleared"] is NSNull || out["cleared"] == nil, "\(out)")
    }

    /// An MP3 lasts as long in a list as in `status` while it plays: what the player plays of
    /// it, its encoder's delay and padding left out (the list said 2.038 s, `status` 2.000).
    static let mp3Length = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.clear(); c.add("Motörhead-ish/Ace of Spätz/01 Øverkill.mp3"); c.play(0)
    until("the mp3 to play", lambda: float(c.status().get("elapsed", "0")) > 0)
    out["listed"] = c.playlistinfo()[0]["duration"]
    out["found"] = c.find("title", "Øverkill")[0]["duration"]
    out["playing"] = c.status()["duration"]
    c.stop()
    print(json.dumps(out))
    """#

    @Test func anMP3LastsAsLongListedAsPlaying() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.mp3Length) as? [String: String])
        #expect(out == ["listed": "2.000", "found": "2.000", "playing": "2.000"], "\(out)")
    }

    @Test func pythonMPDWalksTheCommands() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.walk) as? [String: Any])
        func value(_ key: String) -> String { out[key].map { "\($0)" } ?? "(missing)" }
        #expect(value("mpd_version") == "0.23.5")
        let status = out["status"] as? [String: String] ?? [:]
        #expect(status["partition"] == "default" && status["state"] == "stop" && status["volume"] == "100", "\(status)")
        #expect((out["tagtypes"] as? [String])?.contains("AlbumArtist") == true)
        let commands = out["commands"] as? [String] ?? []
        for c in ["play", "find", "list", "idle", "sendmessage", "config"] { #expect(commands.contains(c), "\(c) not in commands") }
        // As MPD lists them: not the command-list words or noidle, and nothing refused with
        // no password set (config is listed, and answers that it is for local clients).
        for c in ["noidle", "command_list_begin", "command_list_end"] { #expect(!commands.contains(c), "\(c) in commands") }
        #expect((out["notcommands"] as? [String]) == [], "\(out["notcommands"] ?? "")")
        #expect((out["decoders"] as? [String]).map { $0.contains("flac") && $0.contains("ffmpeg") } == true, "\(value("decoders"))")
        #expect((out["lsinfo"] as? [String])?.contains("Miles Quartet") == true)
        #expect((out["listallinfo"] as? Int ?? 0) > 20 && (out["listall"] as? Int ?? 0) > (out["listallinfo"] as? Int ?? 0), "\(value("listall")) \(value("listallinfo"))")
        #expect((out["listfiles"] as? [String]) == ["01 So Modal.flac", "02 Blue in Grey.flac", "03 Flamenco Dusk.flac"])
        // The file's own keys, read by TagLib; a path outside the library finds nothing.
        let comments = out["readcomments"] as? [String: Any] ?? [:]
        #expect("\(comments["title"] ?? "")" == "So Modal" && comments["album"] != nil && comments["tracknumber"] != nil, "\(comments)")
        #expect(value("readcomments_outside").contains("[50@0] {readcomments} No such song"), "\(value("readcomments_outside"))")
        #expect((out["find_pairs"] as? [String]) == ["So Modal", "Blue in Grey", "Flamenco Dusk"])
        #expect((out["find_expr"] as? [String]) == ["Blue in Grey"])
        #expect((out["search"] as? [String]) == ["So Modal"])
        #expect(value("find_base") == "3")
        #expect((out["find_window"] as? [String]) == ["Blue in Grey"])
        #expect((out["count"] as? [String: String])?["songs"] == "3")
        #expect(value("count_group").contains("Miles Quartet"), "\(value("count_group"))")
        #expect(value("list_album").contains("Blue Sketches"), "\(value("list_album"))")
        // The last group is the outermost, as MPD nests them: album, then artist, then genre.
        let nested = out["list_two_groups"] as? [[String]] ?? []
        #expect(!nested.isEmpty && nested.allSatisfy { $0.first == "album" } && nested.contains(["album", "artist", "genre"]),
                "\(value("list_two_groups"))")
        #expect(value("bad_filter").contains("[2@0] {find} Unknown filter type: nosuchtag"), "\(value("bad_filter"))")
        #expect(value("playlistinfo").contains("Blue in Grey"))
        #expect((out["plchanges"] as? [String])?.isEmpty == false, "\(value("plchanges"))")
        #expect((out["after_moves"] as? [String])?.count == 3)
        #expect((out["playlistfind"] as? [String]) == ["So Modal"])
        #expect((out["playlistsearch"] as? [String]) == ["So Modal"])
        #expect((out["prios"] as? [String]) == ["0", "5", "7"], "\(value("prios"))")
        #expect(value("state_play") == "play" && value("state_pause") == "pause" && value("state_stop") == "stop")
        // As MPD: the song playing (or paused) cannot be cut; a start after the song's end is refused.
        #expect(value("rangeid_current").contains("[4@0] {rangeid} Cannot edit the current song"), "\(value("rangeid_current"))")
        #expect(value("rangeid_past_end").contains("[2@0] {rangeid} Invalid start offset"), "\(value("rangeid_past_end"))")
        #expect(value("seek").contains("1"), "\(value("seek"))")
        #expect(value("seekcur") == "1.0", "\(value("seekcur"))")
        #expect(value("getvol") == "30", "\(value("getvol"))")
        // The decoder's format, as MPD's `audio:`: not the float that volume makes of it.
        #expect(value("audio_at_half_volume") == "44100:16:2", "\(value("audio_at_half_volume"))")
        #expect((out["options"] as? [String]) == ["1", "1", "1", "1"], "\(value("options"))")
        #expect(value("oneshot") == "oneshot")
        #expect(value("replay_gain_status") == "album")
        #expect(value("bad_output").contains("[50@0] {enableoutput} No such audio output"), "\(value("bad_output"))")
        #expect(value("channels").contains("chat"))
        #expect(value("readmessages").contains("hello"))
        #expect(value("listpartitions").contains("default"))
        #expect(value("config_over_tcp").contains("[4@0] {config}"), "\(value("config_over_tcp"))")
        #expect(value("command_list") == "3", "\(value("command_list"))")
        #expect((out["idle"] as? [String]) == ["options"], "\(value("idle"))")
        #expect(value("listplaylist_all") == "3", "\(value("listplaylist_all"))")
        #expect(value("listplaylist_window") == "[1, 2, 0]", "\(value("listplaylist_window"))")
        #expect(value("cleared") == "0")
        #expect(value("bad_index").contains("[2@0] {play} Bad song index"), "\(value("bad_index"))")
        #expect(value("bad_id").contains("[50@0] {playid} No such song"), "\(value("bad_id"))")
        #expect(value("bad_number").contains("[2@0] {setvol} Integer expected: loud"), "\(value("bad_number"))")
    }
}
