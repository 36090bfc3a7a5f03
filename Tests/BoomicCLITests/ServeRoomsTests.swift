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
    time.sleep(0.5)
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
}
