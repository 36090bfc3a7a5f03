import BoomicTestSupport
import Foundation
import Testing

/// Rooms are MPD partitions: each a queue and a player of its own on its own output, all on
/// one library; `boomic rooms` lists them with what each plays, and a restarted server puts
/// them back with their outputs.
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServeRoomsTests {
    static let script = RunningServer.pythonPrelude + #"""
    wav = sys.argv[2]
    a = mpd.MPDClient(); a.connect("127.0.0.1", port)
    b = mpd.MPDClient(); b.connect("127.0.0.1", port)
    b.newpartition("Kitchen")
    run("again", lambda: b.newpartition("Kitchen"))
    b.partition("Kitchen")
    b.moveoutput("wav:" + wav)
    b.add("Miles Quartet/Blue Sketches")
    b.play()
    until("the kitchen's output to get sound", lambda: os.path.exists(wav) and os.path.getsize(wav) > 44)
    run("kitchen", lambda: (b.status()["partition"], b.status()["state"], b.status()["playlistlength"]))
    run("default", lambda: (a.status()["partition"], a.status()["state"], a.status()["playlistlength"]))
    run("outputs", lambda: [(o["outputname"], o["outputenabled"]) for o in b.outputs()])
    run("partitions", a.listpartitions)
    run("busy", lambda: a.delpartition("Kitchen"))
    run("nosuch", lambda: a.partition("Attic"))
    # A client that moves to another room hears at its next idle, at once, what to reload.
    c = mpd.MPDClient(); c.idletimeout = 3; c.connect("127.0.0.1", port)
    c.partition("Kitchen")
    run("moved", lambda: sorted(c.idle()))
    print(json.dumps(out))
    """#

    @Test func eachRoomHasItsOwnQueuePlayerAndOutput() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let wav = box.root + "/kitchen.wav"
        var server: RunningServer? = try RunningServer(box, extra: ["--output", "null", "--output", "wav:" + wav])
        let run = try server!.python(Self.script, wav)
        try #require(run.succeeded, "\(run)\n\(server!.serverLog)")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        func value(_ key: String) -> String { out[key].map { "\($0)" } ?? "(missing)" }
        #expect(value("again").contains("[56@0] {newpartition}"), "\(value("again"))")
        #expect((out["kitchen"] as? [String]) == ["Kitchen", "play", "3"], "\(value("kitchen"))")
        #expect((out["default"] as? [String]) == ["default", "stop", "0"], "\(value("default"))")
        #expect((out["outputs"] as? [[String]]) == [["null", "0"], ["wav:" + wav, "1"]], "\(value("outputs"))")
        #expect(value("partitions").contains("Kitchen") && value("partitions").contains("default"))
        // b drives the kitchen: MPD deletes no partition a client is in.
        #expect(value("busy").contains("[5@0] {delpartition} partition still has clients"), "\(value("busy"))")
        #expect(value("nosuch").contains("[50@0] {partition}"), "\(value("nosuch"))")
        #expect((out["moved"] as? [String]) == ["mixer", "options", "output", "player", "playlist"], "\(value("moved"))")
        let rooms = try box.boomic(["rooms"], environment: ["BOOMIC_SERVER": "127.0.0.1:\(server!.port)"])
        #expect(rooms.lines.count == 2 && rooms.lines[1].hasPrefix("Kitchen  [play]  wav:") && rooms.lines[1].contains("Miles Quartet"), "\(rooms)")
        #expect(server!.stop().status == 0)
        // The kitchen's output played what the kitchen played.
        #expect((try? FileManager.default.attributesOfItem(atPath: wav)[.size] as? Int) ?? 0 > 44, "nothing reached the kitchen's output")

        // A restart brings the room back, with its output and its queue.
        server = try RunningServer(box, extra: ["--output", "null", "--output", "wav:" + wav])
        let again = try box.boomic(["queue", "--room", "Kitchen"], environment: ["BOOMIC_SERVER": "127.0.0.1:\(server!.port)"])
        #expect(again.lines.count == 3, "\(again)")
        let rooms2 = try box.boomic(["rooms"], environment: ["BOOMIC_SERVER": "127.0.0.1:\(server!.port)"])
        #expect(rooms2.lines.count == 2 && rooms2.lines[1].contains("wav:"), "\(rooms2)")
        _ = server!.stop()
    }
    /// Fifteen rooms besides `default` (the cap, tested in process by `PartitionLimitsTests`); a
    /// room made by `newpartition` holds no thread until it is used (300 of them took a server
    /// from 9 threads to 611) nor once its last client has left it stopped, and a restart
    /// brings back only rooms with an output or a queue.
    static let many = RunningServer.pythonPrelude + #"""
    import os
    pid = sys.argv[2]
    threads = lambda: len(os.listdir("/proc/%s/task" % pid))
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.ping()
    before = threads()
    for i in range(15): c.newpartition("p%d" % i)
    out["grown"] = threads() - before
    d = mpd.MPDClient(); d.connect("127.0.0.1", port)
    d.partition("p0")
    d.add("Miles Quartet")
    out["woken"] = d.status()["playlistlength"]
    out["awake"] = threads()
    # The last client leaves the stopped room: it goes back to sleep, its player's two threads end.
    d.partition("default")
    until("the room's player threads to end", lambda: threads() <= out["awake"] - 2)
    out["asleep"] = threads()
    out["partitions"] = [p["partition"] for p in c.listpartitions()]
    print(json.dumps(out))
    """#

    @Test func roomsAreCappedAndAnIdleOneHoldsNoThread() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        var server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.many, String(server.process.processIdentifier)) as? [String: Any])
        func value(_ key: String) -> String { out[key].map { "\($0)" } ?? "(missing)" }
        // Each room that plays holds two threads: 15 would be 30.
        #expect((out["grown"] as? Int).map { $0 < 8 } == true, "threads grew by \(value("grown")) for 15 idle rooms")
        #expect(value("woken") == "3", "a room used wakes with its queue: \(value("woken"))")
        let awake = out["awake"] as? Int ?? 0, asleep = out["asleep"] as? Int ?? 99
        #expect(asleep <= awake - 2, "the room left sleeps again: \(awake) threads, then \(asleep)")
        #expect((out["partitions"] as? [String])?.count == 16, "\(value("partitions"))")
        #expect(server.stop().status == 0)

        // Only the room with a queue comes back.
        server = try RunningServer(box)
        let rooms = try server.python(RunningServer.pythonPrelude + #"""
            c = mpd.MPDClient(); c.connect("127.0.0.1", port)
            print(json.dumps([p["partition"] for p in c.listpartitions()]))
            """#)
        #expect(rooms.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"["default", "p0"]"#, "\(rooms)")
        _ = server.stop()
    }

    /// A room's players stop and start again for `moveoutput`: a tenth of a second while one
    /// plays, and as long as an output takes to let go (a sound card, here a pipe nobody reads
    /// yet). Meanwhile the server answers its other clients, those on the mover's event loop
    /// included; the mover's own next request waits for the move.
    static let moving = RunningServer.pythonPrelude + #"""
    import os, select, socket
    fifo = sys.argv[2]
    def connect():
        s = socket.create_connection(("127.0.0.1", port)); s.settimeout(5); s.recv(64); return s
    def ask(s, line):
        s.sendall(line.encode() + b"\n"); got = b""
        try:
            while not (got.endswith(b"OK\n") or b"ACK" in got): got += s.recv(65536)
        except socket.timeout:
            return "no answer in 5 s"
        return got.decode()
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # opened, not read: the pipe fills up
    mover = connect()
    # Connections go to the event loops in turn: among this many, some share the mover's loop.
    others = [connect() for _ in range(2 * (os.cpu_count() or 1) + 1)]
    for line in ["newpartition Kitchen", "partition Kitchen", "moveoutput \"wav:" + fifo + "\"", "add \"Miles Quartet\"", "play"]:
        ask(mover, line)
    until("the pipe to fill: the kitchen's output waits in a write", output_waits)
    mover.sendall(b"moveoutput null\nstatus\n")  # the kitchen's player stops: it waits for the output
    # The move waits for the output as long as nobody reads: no answer comes in this time.
    out["moverAnsweredBefore"] = bool(select.select([mover], [], [], 0.2)[0])
    out["others"] = [ask(s, "ping") for s in others]
    out["moverAnsweredBefore"] |= bool(select.select([mover], [], [], 0)[0])
    def drain():
        # A descriptor that writes too, so that the pipe never reads as ended while the
        # output reopens it: every read waits for data.
        both = os.open(fifo, os.O_RDWR)
        while True: os.read(both, 65536)
    threading.Thread(target=drain, daemon=True).start()
    got = b""
    while got.count(b"OK\n") < 2: got += mover.recv(65536)
    out["mover"] = got.decode().split("\n")[0]
    out["playsOn"] = "state: play" in got.decode()
    print(json.dumps(out))
    """#

    @Test func aMoveKeepsNoOtherClientWaiting() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let fifo = box.root + "/kitchen.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let server = try RunningServer(box, extra: ["--output", "null", "--output", "wav:" + fifo])
        defer { _ = server.stop() }
        let out = try #require(try server.pythonJSON(Self.moving, fifo) as? [String: Any])
        #expect((out["others"] as? [String])?.allSatisfy { $0 == "OK\n" } == true, "every other client answered during the move: \(out)")
        #expect(out["moverAnsweredBefore"] as? Bool == false, "the move waited for the output: \(out)")
        #expect(out["mover"] as? String == "OK", "\(out)")
        #expect(out["playsOn"] as? Bool == true, "the kitchen plays on after the move: \(out)")
    }
    /// While a move restarts a room whose output hangs (3 s), what that room's other clients
    /// send waits for the new player instead of going to the one that is leaving (it was
    /// answered OK and lost), and the output that hung is switched off (opened again, it hung
    /// every player after). SIGTERM during a move waits for it, so the room's state is saved (it
    /// exited at once, and the state saved before came back).
    static let changesDuringAMove = RunningServer.pythonPrelude + #"""
    import select, socket
    def connect():
        s = socket.create_connection(("127.0.0.1", port)); s.settimeout(20); s.recv(64); return s
    def ask(s, line):
        s.sendall(line.encode() + b"\n"); got = b""
        while not (got.endswith(b"OK\n") or b"ACK" in got): got += s.recv(65536)
        return got.decode()
    def status(s):
        return dict(l.split(": ", 1) for l in ask(s, "status").splitlines() if ": " in l)
    fifo = sys.argv[2]
    a, mover, c = connect(), connect(), connect()
    ask(a, "add \"Miles Quartet/Blue Sketches\""); ask(a, "play")
    until("the pipe to fill: default's output waits in a write", output_waits)
    ask(a, "newpartition Kitchen"); ask(mover, "partition Kitchen")
    mover.sendall(b"moveoutput null\n")  # default restarts: its player takes 3 s to leave its output
    # The move under way: it answers after the 3 s the output is given, not in this time.
    out["movedAtOnce"] = bool(select.select([mover], [], [], 0.3)[0])
    out["add"] = ask(c, "add \"Old Timer\"").strip()
    out["random"] = ask(c, "random 1").strip()
    out["moved"] = mover.recv(64).decode().strip()
    after = status(c)
    out["length"], out["randomOn"] = after["playlistlength"], after["random"]
    # The output that hung is switched off: the new player did not open it again.
    out["fifoEnabled"] = ask(c, "outputs").split("outputid: 2\n")[1].split("outputenabled: ")[1][0]
    ask(c, "enableoutput 2")  # on again: default's player hangs on it again
    until("default's player to hang on the pipe again", lambda: output_waits(threads=2))
    ask(mover, "partition default")
    mover.sendall(b"moveoutput null\n")  # default restarts again; SIGTERM comes meanwhile
    # The move under way, as above, when the script ends and the test sends SIGTERM.
    out["movingAtTheEnd"] = not select.select([mover], [], [], 0.3)[0]
    print(json.dumps(out), flush=True)
    """#

    /// A library of the samples, and a pipe for a `wav:` output opened for reading (not read):
    /// once its buffer is full, the output hangs in a write until the reader reads or closes.
    static func pipeBox() throws -> (box: Sandbox, fifo: String, reader: Int32) {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let fifo = box.root + "/out.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        return (box, fifo, open(fifo, O_RDONLY | O_NONBLOCK))
    }

    @Test func changesAndStopsDuringAMoveWaitForIt() throws {
        // The reader is closed at the end only: default's output hangs, through the stop too.
        let (box, fifo, reader) = try Self.pipeBox()
        defer { close(reader) }
        var server: RunningServer? = try RunningServer(box, extra: ["--output", "null", "--output", "wav:" + box.root + "/a.wav", "--output", "wav:" + fifo])
        let out = try #require(try server!.pythonJSON(Self.changesDuringAMove, fifo) as? [String: Any])
        #expect(out["movedAtOnce"] as? Bool == false && out["movingAtTheEnd"] as? Bool == true, "\(out)")
        let text = out.compactMapValues { $0 as? String }
        #expect(text["add"] == "OK" && text["random"] == "OK" && text["moved"] == "OK", "\(out)")
        let expected = try #require(Int(text["length"] ?? ""))
        #expect(expected > 3 && text["randomOn"] == "1", "the changes made during the move were lost: \(out)")
        #expect(text["fifoEnabled"] == "0" && server!.serverLog.contains("output wav:\(fifo) hangs and is disabled"),
                "\(out)\n\(server!.serverLog)")
        #expect(server!.stop(within: 30) == 0, "\(server!.serverLog)")
        server = try RunningServer(box, extra: ["--output", "null"])
        let status = try server!.mpc("status")
        #expect(try server!.mpc("playlist").stdout.split(separator: "\n").count == expected, "the queue saved at the stop")
        #expect(status.stdout.contains("random: on"), "\(status)")
        _ = server!.stop()
    }
    /// A room playing on a `wav:` file (output 0) and a pipe nobody reads (output 1), frozen once
    /// the pipe is full; `letGo` is what the client (or nobody) does then. The room must play on
    /// on the file, with the pipe switched off; the server's log must say `logged`; `check` looks
    /// at the rest of what the script found and the log.
    static func playsOnWithoutTheHungPipe(_ letGo: String, logged: (String) -> String,
                                          check: ([String: Any], String) -> Void = { _, _ in },
                                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let script = RunningServer.pythonPrelude + #"""
        wav, fifo = sys.argv[2], sys.argv[3]
        def stands_still(path):
            size = os.path.getsize(path)
            time.sleep(0.3)  # several slots' time: a thread that writes makes the file grow
            return os.path.getsize(path) == size
        c = mpd.MPDClient(); c.timeout = 20; c.connect("127.0.0.1", port)
        c.add("Miles Quartet/Blue Sketches"); c.repeat(1); c.play()
        until("the pipe to fill: the room waits with it", output_waits)
        frozen = os.path.getsize(wav)
        time.sleep(0.5)  # the wait is the test: the file does not grow meanwhile
        out["frozen"] = os.path.getsize(wav) == frozen

        """# + letGo + #"""

        grown = os.path.getsize(wav)
        until("the room to play on on its file", lambda: os.path.getsize(wav) > grown + 44100)
        out["playsOn"] = c.status()["state"] == "play"
        out["enabled"] = [o["outputenabled"] for o in c.outputs()]
        print(json.dumps(out))
        """#
        let (box, fifo, reader) = try Self.pipeBox()
        defer { close(reader) }
        let wav = box.root + "/a.wav"
        let server = try RunningServer(box, extra: ["--output", "wav:" + wav, "--output", "wav:" + fifo])
        defer { _ = server.stop(within: 30) }
        let out = try #require(try server.pythonJSON(script, wav, fifo) as? [String: Any], sourceLocation: sourceLocation)
        #expect(out["frozen"] as? Bool == true, "the hung pipe holds the room: \(out)", sourceLocation: sourceLocation)
        #expect(out["playsOn"] as? Bool == true && out["enabled"] as? [String] == ["1", "0"], "\(out)\n\(server.serverLog)",
                sourceLocation: sourceLocation)
        #expect(server.serverLog.contains(logged(fifo)), "\(server.serverLog)", sourceLocation: sourceLocation)
        check(out, server.serverLog)
    }

    /// `disableoutput` of an output hung in a write: the room, which waited with it, plays on on
    /// its other output once the answer comes (it stayed frozen).
    @Test func disablingAHungOutputLetsTheRoomPlayOn() throws {
        try Self.playsOnWithoutTheHungPipe("c.disableoutput(1)", logged: { _ in "hangs: room default plays on without it" })
    }

    /// An output that hangs while the room plays, with nobody touching it: the watchdog switches
    /// it off after `Rooms.hangLimit` and the room plays on on its other output, where it stayed
    /// frozen with its time standing and nothing said why.
    @Test func anOutputThatHangsByItselfIsSwitchedOff() throws {
        try Self.playsOnWithoutTheHungPipe(#"""
            until("the watchdog to switch the pipe off", lambda: c.outputs()[1]["outputenabled"] == "0", timeout=20)
            """#, logged: { "output wav:\($0) hangs (a call has not returned in 5 s) and is disabled: room default plays on without it" })
    }

    /// An output the watchdog switched off, switched on again in a room that is paused: the
    /// write left behind by the player it hung is still stuck, but the room's player makes no
    /// call to it while paused, so nothing is taken for hung (the watchdog looked at the
    /// output's switch, which both players share, and switched it off again, replacing a player
    /// that was fine). Played again, the new player hangs on the full pipe in turn.
    @Test func aPausedRoomsReenabledOutputIsNotTakenForHung() throws {
        try Self.playsOnWithoutTheHungPipe(#"""
            until("the watchdog to switch the pipe off", lambda: c.outputs()[1]["outputenabled"] == "0", timeout=20)
            until("the room's new player to play", lambda: c.status()["state"] == "play")
            c.pause()
            until("the room to pause", lambda: c.status()["state"] == "pause")
            # The status says paused at once; the output thread stops at its next slot. A slot
            # already taken is written, and the switch turned on before it opens the pipe (a
            # call that hangs in turn): the room's file stops growing once the thread stopped.
            until("the room's output thread to stop", lambda: stands_still(wav))
            c.enableoutput(1)
            time.sleep(7)  # the wait is the test: past the 5-s hang limit, the output stays on
            out["stillEnabled"] = c.outputs()[1]["outputenabled"]
            c.disableoutput(1); c.play()
            """#, logged: { "output wav:\($0) hangs (a call has not returned in 5 s) and is disabled" }, check: { out, log in
            #expect(out["stillEnabled"] as? String == "1", "\(out)\n\(log)")
            #expect(log.components(separatedBy: "hangs (a call").count == 2, "one hang found, not two: \(log)")
        })
    }

    /// A client that shuts down its side right after its requests (`printf … | nc`, a script's
    /// `shutdown(SHUT_WR)`) gets the answers of a move and of what it sent after it, as from
    /// MPD; the connection closed at the shutdown, the move done and nothing said.
    static let halfClosed = #"""
    import socket, sys, json
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b'newpartition "K"\npartition "K"\nmoveoutput "null"\nping\npartition "default"\nmoveoutput "null"\ndelpartition "K"\nping\n')
    s.shutdown(socket.SHUT_WR)
    s.settimeout(20)
    text = b""
    while True:
        chunk = s.recv(65536)
        if not chunk: break
        text += chunk
    print(json.dumps({"text": text.decode()}))
    """#

    @Test func aClientThatEndsItsSideGetsEveryAnswer() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box, extra: ["--output", "null", "--output", "wav:" + box.root + "/a.wav"])
        defer { _ = server.stop(within: 30) }
        let text = try #require((try server.pythonJSON(Self.halfClosed) as? [String: String])?["text"])
        #expect(text == "OK MPD 0.23.5\n" + String(repeating: "OK\n", count: 8), "\(text)\n\(server.serverLog)")
    }

    /// An output switched off because it failed (its pipe's reader went away) stays off after a
    /// restart, as every switch does (it came back on unless something else had saved the layout).
    @Test func anOutputThatFailedStaysOffAfterARestart() throws {
        let (box, fifo, reader) = try Self.pipeBox()
        var server: RunningServer? = try RunningServer(box, extra: ["--output", "null", "--output", "wav:" + fifo])
        #expect(try server!.mpc("add", "Miles Quartet/Blue Sketches").succeeded)
        #expect(try server!.mpc("play").succeeded)
        try waitUntil("the output to write to its pipe") { Watch.pipeHasData(reader) }
        close(reader)  // the next write fails: Broken pipe
        try? waitUntil("the server to log the failed output") { server!.serverLog.contains("failed and is disabled") }
        #expect(server!.serverLog.contains("output wav:\(fifo) failed and is disabled"), "\(server!.serverLog)")
        #expect(server!.stop(within: 30) == 0)
        server = try RunningServer(box, extra: ["--output", "null", "--output", "wav:" + fifo])
        let outputs = try server!.mpc("outputs")
        #expect(outputs.stdout.contains("Output 2 (wav:\(fifo)) is disabled"), "\(outputs)")
        _ = server!.stop(within: 30)
    }
}
