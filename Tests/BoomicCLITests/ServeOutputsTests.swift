import BoomicTestSupport
import Foundation
import Testing

/// A room with several outputs plays on every one switched on, as MPD plays a partition on all
/// its enabled outputs: two `wav:` outputs get the same bytes, one that cannot open is reported
/// and switched off while the others play, and `disableoutput` while playing closes its output
/// at once (its file holds what came before, the other's goes on).
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServeOutputsTests {
    static let script = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.add("Miles Quartet/Blue Sketches")
    c.play()
    elapsed = lambda: float(c.status().get("elapsed", "0"))
    until("0.8 s played", lambda: elapsed() >= 0.8)
    run("outputs", lambda: [(o["outputid"], o["outputenabled"]) for o in c.outputs()])
    run("state", lambda: c.status()["state"])
    if sys.argv[2] == "disable":
        c.disableoutput(1)
        run("after", lambda: [(o["outputid"], o["outputenabled"]) for o in c.outputs()])
        since = elapsed()
        until("0.8 s more played on the other outputs", lambda: elapsed() >= since + 0.8)
    c.stop()
    print(json.dumps(out))
    """#

    /// The samples of a WAV file the sink wrote (after its `data` chunk header).
    static func data(_ path: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tag = Array("data".utf8)
        let at = try #require((0..<(bytes.count - 8)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        return Array(bytes[(at + 8)...])
    }

    @Test func everyOutputOfTheRoomGetsTheSameAudioAndAFailingOneIsSwitchedOff() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let a = box.root + "/a.wav", b = box.root + "/b.wav", broken = box.root + "/no/such/folder/c.wav"
        let server = try RunningServer(box, extra: ["--output", "wav:" + a, "--output", "wav:" + b, "--output", "wav:" + broken])
        let out = try #require(try server.pythonJSON(Self.script, "play") as? [String: Any])
        #expect((out["state"] as? String) == "play", "\(out)")
        #expect((out["outputs"] as? [[String]]) == [["0", "1"], ["1", "1"], ["2", "0"]], "\(out)")
        #expect(server.stop().status == 0)
        #expect(server.serverLog.contains("output wav:\(broken) failed and is disabled"), "\(server.serverLog)")
        let dataA = try Self.data(a), dataB = try Self.data(b)
        #expect(dataA.count > 44_100, "nothing reached the first output")
        #expect(dataA == dataB, "the two outputs differ: \(dataA.count) and \(dataB.count) bytes")
        #expect(!FileManager.default.fileExists(atPath: broken))
    }

    @Test func disablingAnOutputWhilePlayingStopsItAndTheOtherPlaysOn() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let a = box.root + "/a.wav", b = box.root + "/b.wav"
        var server: RunningServer? = try RunningServer(box, extra: ["--output", "wav:" + a, "--output", "wav:" + b])
        let run = try server!.python(Self.script, "disable")
        try #require(run.succeeded, "\(run)\n\(server!.serverLog)")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((out["outputs"] as? [[String]]) == [["0", "1"], ["1", "1"]], "\(out)")
        #expect((out["after"] as? [[String]]) == [["0", "1"], ["1", "0"]], "\(out)")
        // Closed when it was switched off: its file is whole already, before the server stops.
        let dataB = try Self.data(b)
        #expect(server!.stop().status == 0)
        let dataA = try Self.data(a)
        #expect(dataB.count > 0 && dataB.count < dataA.count, "\(dataB.count) and \(dataA.count) bytes")
        #expect(Array(dataA.prefix(dataB.count)) == dataB, "the disabled output did not get what the other got")

        // The switch is kept for the next start.
        server = try RunningServer(box, extra: ["--output", "wav:" + a, "--output", "wav:" + b])
        let outputs = try server!.mpc("outputs")
        #expect(outputs.stdout.contains("Output 2 (wav:\(b)) is disabled"), "\(outputs)")
        _ = server!.stop()
    }
}
