import BoomicTestSupport
import Foundation
import Testing

/// `rangeid` as MPD 0.23 has it: the entry plays only that part of its file, `playlistinfo`
/// prints `Range:` and the part's length, and `status` counts `elapsed` and `duration` within
/// the part (checked against Debian's mpd 0.23.12: `0.500-1.500`, `Time: 1`, `duration: 1.000`;
/// `0.7:` prints `0.700-`, `:1.2` prints `0.000-1.200`, `:` none).
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServeRangeTests {
    static let script = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.add("tone.wav")
    i = c.playlistinfo()[0]["id"]
    for r in ["0.7:", ":1.2", ":"]:
        c.rangeid(i, r)
        run("entry " + r, lambda: {k: v for k, v in c.playlistinfo()[0].items() if k in ("range", "time", "duration")})
    c.rangeid(i, "0.5:1.5")
    run("entry", lambda: {k: v for k, v in c.playlistid(i)[0].items() if k in ("range", "time", "duration")})
    c.play(0)
    run("playing", lambda: {k: v for k, v in c.status().items() if k in ("state", "duration")})
    run("current", lambda: c.rangeid(i, "0.1:0.2"))
    elapsed = []
    def ended():
        s = c.status()
        elapsed.append(float(s.get("elapsed", "0")) if s["state"] != "stop" else 0)
        return s["state"] == "stop"
    until("the ranged entry to end", ended)
    out["elapsed"] = max(elapsed) if elapsed else -1
    out["state"] = c.status()["state"]
    print(json.dumps(out))
    """#

    /// A 2-s file with `rangeid ID 0.5:1.5` puts exactly its frames 22,050 to 66,150 in the
    /// `wav:` output: one second, no more.
    @Test func aRangedEntryPlaysThatPartAndShowsIt() throws {
        let box = try Sandbox(samples: false)
        let music = box.root + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", music + "/tone.wav", "synth", "2", "sine", "300-3000"])
        try box.succeed("import", music)
        let wav = box.root + "/out.wav"
        let server = try RunningServer(box, extra: ["--output", "wav:" + wav])
        let out = try #require(try server.pythonJSON(Self.script) as? [String: Any])
        #expect(server.stop().status == 0)
        #expect(out["entry 0.7:"] as? [String: String] == ["range": "0.700-", "time": "1", "duration": "1.300"], "\(out)")
        #expect(out["entry :1.2"] as? [String: String] == ["range": "0.000-1.200", "time": "1", "duration": "1.200"], "\(out)")
        #expect(out["entry :"] as? [String: String] == ["time": "2", "duration": "2.000"], "\(out)")
        #expect(out["entry"] as? [String: String] == ["range": "0.500-1.500", "time": "1", "duration": "1.000"], "\(out)")
        #expect(out["playing"] as? [String: String] == ["state": "play", "duration": "1.000"], "\(out)")
        #expect((out["current"] as? [String: String])?["error"]?.contains("Cannot edit the current song") == true, "\(out)")
        let elapsed = try #require(out["elapsed"] as? Double)
        #expect(elapsed > 0.5 && elapsed <= 1.0, "elapsed counts within the range: \(out)")
        #expect(out["state"] as? String == "stop", "\(out)")
        let played = try ToneTracks.wavData(ofFile: wav)
        let tone = try ToneTracks.wavData(ofFile: music + "/tone.wav")
        #expect(played.count == 44_100 * 4, "\(played.count / 4) frames played")
        #expect(played == Array(tone[(22_050 * 4)..<(66_150 * 4)]), "not the file's frames 22,050 to 66,150")
    }
}
