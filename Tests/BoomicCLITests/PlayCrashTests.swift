import BoomicTestSupport
import Foundation
import Testing

/// `kill -9` of a playing `boomic play`, then `--resume`, again and again: every song of the
/// queue is heard to its end once across the runs, so every song counts one play, however the
/// kills fall (DESIGN §1: each play has a key, so a crash and a resume never count it twice).
@Suite struct PlayCrashTests {
    static let songs = 20
    static let kills = 10

    /// Twenty songs of 0.6 s, played in real time to the null output and killed at random
    /// moments (seeded; the seed is printed), each run resuming the one before, until the queue
    /// ends. Most kills come within the first second of a run (before any periodic save), every
    /// fourth a little after the player's 5-s save, when songs whose plays are committed have
    /// ended since. A kill before the first save may leave nothing to resume, but then nothing
    /// was recorded either, and a fresh `play` starts over.
    @Test func killedAndResumedPlaysCountEachSongOnce() throws {
        var rng = SplitMix64.fromEnvironment()
        let seed = rng.seed
        let box = try Sandbox(samples: false)
        let music = box.root + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        for i in 0..<Self.songs {
            try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", music + "/\(Self.name(i)).flac",
                            "synth", "0.6", "sine", String(300 + 50 * i), "gain", "-6"])
        }
        try box.succeed("import", music)
        let state = box.library + "/player/state.json"
        var killed = 0, finished = false
        for k in 0..<Self.kills {
            let resumable = FileManager.default.fileExists(atPath: state)
            if !resumable {
                let plays = try decodeJSON([HistoryRecord].self, try box.succeed("history", "--kind", "play", "--json").stdout).map(\.label)
                #expect(plays.isEmpty, "\(Seeds.replay(seed)), kill \(k): nothing to resume, yet plays were recorded: \(plays)")
            }
            let arguments = (resumable ? ["play", "--resume"] : ["play"]) + ["--realtime", "--output", "null"]
            let saveEvery = 5.0 // PlayerFront.saveEvery
            let delay = k % 4 == 3 ? saveEvery + 0.1 + rng.unit() : 0.15 + 0.85 * rng.unit()
            let run = try Fault.kill(box, arguments, after: delay)
            if run.hit {
                killed += 1
            } else {
                #expect(run.finished?.succeeded == true, "\(Seeds.replay(seed)), kill \(k): \(run)")
                finished = true
                break
            }
        }
        if !finished { try box.succeed("play", "--resume", "--realtime", "--output", "null") }
        let counts = try box.songs().map { "\(($0.path as NSString).lastPathComponent): \($0.playcount ?? 0) played, \($0.skipcount ?? 0) skipped" }
        let expected = (0..<Self.songs).map { "\(Self.name($0)).flac: 1 played, 0 skipped" }
        print("PlayCrashTests: \(Seeds.replay(seed)), \(killed) of \(Self.kills) kills hit a playing boomic")
        #expect(counts == expected, "\(Seeds.replay(seed))")
        let plays = try decodeJSON([HistoryRecord].self, try box.succeed("history", "--kind", "play", "--json").stdout).map(\.label)
        #expect(plays.count == Self.songs, "\(Seeds.replay(seed)): \(plays)")
        #expect(killed > 0, "no kill hit a playing boomic; the test proved nothing")
    }

    /// `07 Tone`: names that sort in the queue's order.
    static func name(_ i: Int) -> String { (i < 9 ? "0" : "") + "\(i + 1) Tone" }
}
