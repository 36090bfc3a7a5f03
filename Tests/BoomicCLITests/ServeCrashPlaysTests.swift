import BoomicTestSupport
import Foundation
import Testing

/// `kill -9` of a playing `boomic serve`, then a restart, which plays on from its state file:
/// every song of the queue counts one play (DESIGN §1: a crash and a resume never count a play
/// twice). The server saves its state at every song's start, so the restart goes on with the
/// song under way, not with the tail of songs whose plays are already in the log.
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServeCrashPlaysTests {
    static let songs = 16

    static let start = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    for name in sys.argv[2:]:
        c.add(name)
    c.play(0)
    print(json.dumps({"state": c.status()["state"]}))
    """#

    static let waitForTheEnd = RunningServer.pythonPrelude + #"""
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    until("the queue to play to its end", lambda: c.status()["state"] == "stop", timeout=30)
    print(json.dumps({"state": c.status()["state"]}))
    """#

    /// Sixteen songs of 0.6 s in real time; the server is killed at a random moment (seeded)
    /// after its first periodic save (5 s), when songs have ended since it, and started again.
    @Test func aKilledServerRestartedCountsEachSongOnce() throws {
        var rng = SplitMix64.fromEnvironment()
        let seed = rng.seed
        let box = try Sandbox(samples: false)
        let music = box.root + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let names = (0..<Self.songs).map { String(format: "%02d Tone.flac", $0 + 1) }
        for (i, name) in names.enumerated() {
            try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", music + "/" + name,
                            "synth", "0.6", "sine", String(300 + 50 * i), "gain", "-6"])
        }
        try box.succeed("import", music)
        let first = try RunningServer(box)
        let started = try #require(try first.pythonJSON(Self.start, names) as? [String: String])
        #expect(started["state"] == "play", "\(started)")
        let delay = 5.3 + 1.5 * rng.unit()
        // The wait is the test: a kill at a random moment (from the seed) after the first save.
        Thread.sleep(forTimeInterval: delay)
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        let second = try RunningServer(box)
        let ended = try #require(try second.pythonJSON(Self.waitForTheEnd) as? [String: String])
        #expect(ended["state"] == "stop", "\(Seeds.replay(seed)): \(ended)")
        #expect(second.stop().status == 0)
        let counts = try box.songs().map { "\(($0.path as NSString).lastPathComponent): \($0.playcount ?? 0)" }
        print("ServeCrashPlaysTests: \(Seeds.replay(seed)), killed after \(delay) s")
        #expect(counts == names.map { "\($0): 1" }, "\(Seeds.replay(seed)), killed after \(delay) s")
    }
}
