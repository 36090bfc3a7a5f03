import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve` driven by mpc, the reference command-line MPD client: every mpc command that
/// maps onto the server's, the answers mpc prints, idle notifications from another boomic
/// process's commit, and SIGTERM saving the queue.
@Suite(.serialized, .enabled(if: RunningServer.mpcAvailable, "mpc is installed by scripts/setup"))
struct ServeMPCTests {
    @Test func mpcDrivesTheQueueAndThePlayer() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)

        let status = try server.mpc("status")
        #expect(status.succeeded && status.stdout.contains("volume:100%"), "\(status)")
        #expect(try server.mpc("stats").stdout.contains("Songs:"))
        // The library's tree: the music folder is the root.
        let top = try server.mpc("ls").lines
        #expect(top.contains("Miles Quartet") && top.contains("Loose Files"), "\(top)")
        #expect(try server.mpc("ls", "Miles Quartet/Blue Sketches").lines.first == "Miles Quartet/Blue Sketches/01 So Modal.flac")
        #expect(try server.mpc("search", "title", "modal").lines == ["Miles Quartet/Blue Sketches/01 So Modal.flac"])
        #expect(try server.mpc("find", "title", "modal").lines == [], "find is case-sensitive and exact")
        #expect(try server.mpc("list", "album", "artist", "Miles Quartet").lines == ["Blue Sketches"])
        #expect(try server.mpc("search", "any", "../").lines == [])

        try expectOK(server.mpc("add", "Miles Quartet"))
        #expect(try server.mpc("playlist").lines == ["Miles Quartet - So Modal", "Miles Quartet - Blue in Grey", "Miles Quartet - Flamenco Dusk"])
        try expectOK(server.mpc("play", "2"))
        #expect(try server.mpc("current").stdout == "Miles Quartet - Blue in Grey\n")
        #expect(try server.mpc("status").lines.dropFirst().first?.hasPrefix("[playing] #2/3") == true)
        try expectOK(server.mpc("pause"))
        #expect(try server.mpc("status").lines.dropFirst().first?.hasPrefix("[paused]  #2/3") == true)
        try expectOK(server.mpc("next"))
        #expect(try server.mpc("current").stdout == "Miles Quartet - Flamenco Dusk\n")
        try expectOK(server.mpc("volume", "40"))
        try expectOK(server.mpc("random", "on"))
        try expectOK(server.mpc("repeat", "on"))
        try expectOK(server.mpc("consume", "on"))
        let options = try server.mpc("status").lines.last ?? ""
        #expect(options.contains("volume: 40%") && options.contains("repeat: on") && options.contains("random: on")
                && options.contains("consume: on"), "\(options)")
        try expectOK(server.mpc("del", "1"))
        try expectOK(server.mpc("move", "1", "2"))
        #expect(try server.mpc("playlist").lines == ["Miles Quartet - Flamenco Dusk", "Miles Quartet - Blue in Grey"])
        try expectOK(server.mpc("clear"))
        #expect(try server.mpc("playlist").lines == [])
        // A path that is not in the library is refused, never opened.
        let outside = try server.mpc("add", "../../etc/passwd")
        #expect(!outside.succeeded && outside.stderr.contains("No such directory"), "\(outside)")

        let (code, took) = server.stop()
        #expect(code == 0 && took < .seconds(2), "exit \(code) after \(took): \(server.serverLog)")
        #expect(FileManager.default.fileExists(atPath: box.library + "/player/state.json"))
    }

    /// A client's `kill` stops the server as SIGTERM does: the connection closes without an
    /// answer, the process exits 0, and the queue is saved. (`close` too ends its connection
    /// without an answer, as MPD's does.)
    @Test func killStopsTheServerAndSavesTheQueue() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let script = """
            import socket, sys
            c = socket.create_connection(("127.0.0.1", int(sys.argv[1]))).makefile("rwb"); c.readline()
            c.write(b"close\\n"); c.flush(); print(repr(c.read()))
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); f = s.makefile("rwb")
            f.readline()
            f.write(b'add "Miles Quartet/Blue Sketches/01 So Modal.flac"\\nkill\\n'); f.flush()
            print(repr(f.readline()), repr(f.read()))
            """
        let run = try server.python(script)
        #expect(run.succeeded && run.stdout == "b''\nb'OK\\n' b''\n", "\(run)")
        try? waitUntil("the server to exit after kill") { !server.process.isRunning }
        #expect(!server.process.isRunning && server.process.terminationStatus == 0, "\(server.serverLog)")
        let state = try String(contentsOfFile: box.library + "/player/state.json", encoding: .utf8)
        #expect(state.contains(#""entries":[{"#), "the queue of one song: \(state)")
    }

    /// A restart (SIGTERM, then serve again) comes back as it was left, as MPD's state file
    /// brings it back: paused at its song (not stopped), at the volume a client set.
    @Test func aRestartComesBackPausedAtItsVolume() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let first = try RunningServer(box)
        try expectOK(first.mpc("add", "Miles Quartet"))
        try expectOK(first.mpc("play", "2"))
        try expectOK(first.mpc("volume", "40"))
        try expectOK(first.mpc("pause"))
        #expect(first.stop().status == 0)
        let second = try RunningServer(box)
        let status = try second.mpc("status").lines
        #expect(status.count == 3 && status[0] == "Miles Quartet - Blue in Grey" && status[1].hasPrefix("[paused]  #2/3"), "\(status)")
        #expect(status.last?.contains("volume: 40%") == true, "\(status)")
        _ = second.stop()
    }

    /// An audiobook playing when the server stops keeps its place in the library: the stop
    /// waits for the player's last event to be recorded before it saves the state and closes
    /// the library (under ThreadSanitizer's slowness, the bookmark was lost). A song's play is
    /// not counted at a stop: the restart goes on with it, and counts it when it ends.
    @Test func anAudiobookPlayingWhenTheServerStopsKeepsItsPlace() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        try box.succeed("tag", "-y", "title:So Modal", "+#audiobook")
        let server = try RunningServer(box)
        _ = try server.pythonJSON(RunningServer.pythonPrelude + #"""
            c = mpd.MPDClient(); c.connect("127.0.0.1", port)
            c.add("Miles Quartet/Blue Sketches/01 So Modal.flac")  # 2 s
            c.play(0)
            until("1 s played", lambda: float(c.status().get("elapsed", "0")) >= 1.0)
            print(json.dumps(out))
            """#)
        #expect(server.stop().status == 0)
        #expect(!server.serverLog.contains("could not be recorded"), "\(server.serverLog)")
        let listed = try box.succeed("ls", "--json", "title:So Modal").stdout
        let song = try #require((try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])?.first)
        let bookmark = try #require(song["bookmark"] as? Double, "\(song)")
        #expect(bookmark >= 1.0 && bookmark < 2.0, "\(song)")
        #expect(song["playcount"] as? Int == 0)
    }

    /// `stats`' playtime moves while a song plays, as MPD's does, not only when it ends.
    @Test func playtimeMovesWhileASongPlays() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(RunningServer.pythonPrelude + #"""
            c = mpd.MPDClient(); c.connect("127.0.0.1", port)
            c.add("坂本 龍一郎/東京の夜/1-01 夜明けの街.mp3")  # 2.06 s
            c.play(0)
            until("1.2 s played", lambda: float(c.status().get("elapsed", "0")) >= 1.2)
            out["playtime"] = int(c.stats()["playtime"]); out["state"] = c.status()["state"]
            print(json.dumps(out))
            """#) as? [String: Any])
        #expect((out["playtime"] as? Int ?? 0) >= 1, "\(out)")
        _ = server.stop()
    }

    /// A commit by another process reaches an idle client: `idle database sticker` returns
    /// `database` when `boomic modify` changes a song, with no restart; not `sticker`, which a
    /// tag edit does not touch (MPD tells it only for stickers). The client says `connected`
    /// once greeted: from then on the server keeps for it what changes, as MPD does.
    @Test func idleHearsAnotherProcesssCommit() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = box.root + "/idle.out"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let idle = try ChildProcess.start("/usr/bin/python3", ["-c", """
            import socket, sys
            f = socket.create_connection(("127.0.0.1", int(sys.argv[1]))).makefile("rwb")
            f.readline(); print("connected", flush=True)
            f.write(b"idle database sticker\\n"); f.flush()
            while (l := f.readline().decode()) not in ("OK\\n", ""): print(l.removeprefix("changed: "), end="")
            """, String(server.port)], stdout: out)
        defer { if idle.isRunning { kill(idle.processIdentifier, SIGKILL) } }
        try waitUntil("the idle client to connect") { Watch.size(of: out) > 0 }
        try box.succeed("modify", "-y", "title:So Modal", "genre=Modal Jazz")
        try? waitUntil("the idle to answer the commit") { !idle.isRunning }
        #expect(!idle.isRunning, "idle still waiting after the commit")
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "connected\ndatabase\n")
        #expect(try server.mpc("find", "genre", "Modal Jazz").lines == ["Miles Quartet/Blue Sketches/01 So Modal.flac"])
    }

    private func expectOK(_ run: ProcessRun, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
    }

    /// `consume` takes played entries out of the queue; the play itself stays in the log.
    @Test func consumeRemovesPlayedEntriesAndKeepsThePlay() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        try expectOK(server.mpc("add", "Miles Quartet/Blue Sketches/01 So Modal.flac"))
        try expectOK(server.mpc("add", "Miles Quartet/Blue Sketches/02 Blue in Grey.flac"))
        try expectOK(server.mpc("consume", "on"))
        try expectOK(server.mpc("play"))
        // So Modal lasts 2 s, played in real time on the null output.
        var queue: [String] = []
        try? waitUntil("So Modal to be consumed", every: .milliseconds(100)) {
            queue = try server.mpc("playlist").lines
            return queue.count != 2
        }
        #expect(queue == ["Miles Quartet - Blue in Grey"], "\(queue)")
        try expectOK(server.mpc("stop"))
        let line = try box.succeed("ls", "title:So Modal", "-f", "$title $playcount").stdout
        #expect(line == "So Modal 1\n", "\(line)")
        let plays = try box.succeed("history", "--kind", "play").stdout
        #expect(plays.contains("play Miles Quartet - So Modal"), "\(plays)")
    }

    /// The rest of mpc's commands that map onto the server's: playlists, outputs, searchadd,
    /// insert, crop, seek, options, stickers, messages, albumart, update.
    @Test func mpcsOtherCommands() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        func ok(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessRun {
            let run = try server.mpc(args)
            #expect(run.succeeded && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
            return run
        }
        _ = try ok("findadd", "album", "Blue Sketches")
        _ = try ok("searchadd", "title", "norðurljós")
        #expect(try ok("playlist").lines.count == 4)
        _ = try ok("play", "1")
        _ = try ok("insert", "Old Timer/Retro Hits/01 Eight Bit Song.mp3")
        #expect(try ok("playlist").lines[1] == "Old Timer - Eight Bit Song", "insert puts it after the current song")
        _ = try ok("queued")
        _ = try ok("seek", "+1")
        _ = try ok("seekthrough", "+0")
        _ = try ok("toggle")
        #expect(try ok("status").lines.dropFirst().first?.hasPrefix("[paused]") == true)
        _ = try ok("save", "From mpc")
        #expect(try ok("lsplaylists").lines.contains("From mpc"))
        #expect(try ok("playlist", "From mpc").lines.count == 5)
        _ = try ok("crop")
        #expect(try ok("playlist").lines.count == 1)
        _ = try ok("load", "From mpc")
        #expect(try ok("playlist").lines.count == 6)
        _ = try ok("rm", "From mpc")
        #expect(!(try ok("lsplaylists").lines.contains("From mpc")))
        _ = try ok("shuffle")
        _ = try ok("single", "on")
        _ = try ok("crossfade", "0")
        _ = try ok("replaygain", "track")
        #expect(try ok("replaygain").stdout.contains("track"))
        _ = try ok("prio", "10", "1")
        #expect(try ok("outputs").stdout.contains("Output 1 (null) is enabled"))
        _ = try ok("enable", "1")
        _ = try ok("toggleoutput", "1")
        _ = try ok("sticker", "Miles Quartet/Blue Sketches/01 So Modal.flac", "set", "rating", "10")
        #expect(try ok("sticker", "Miles Quartet/Blue Sketches/01 So Modal.flac", "get", "rating").stdout == "rating=10\n")
        _ = try ok("channels")
        // As MPD: a message to a channel nobody reads is refused.
        #expect(try server.mpc("sendmessage", "nobody", "x").stderr.contains("nobody is subscribed to this channel"))
        _ = try ok("update", "--wait")
        #expect(try ok("albumart", "Miles Quartet/Blue Sketches/01 So Modal.flac").stdout.hasPrefix("\u{FFFD}PNG"),
                "the cover is a PNG")
        _ = try ok("volume", "+5")
        _ = try ok("clear")
        _ = try ok("version")
    }
}
