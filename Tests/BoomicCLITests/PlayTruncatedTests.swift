import BoomicTestSupport
import Foundation
import Testing

/// A song whose file is cut short after it was imported (a copy interrupted, a disk failing)
/// ends early when played: it counts by what was heard, as a song moved on from does (half of
/// its known length, or 4 minutes), not as one heard to its end.
@Suite struct PlayTruncatedTests {
    /// Two WAV files of 4 s, imported, then cut to 1 s and to 3 s of audio (their headers still
    /// say 4 s): the first is a skip, the second (3 of 4 s heard) a play.
    @Test func aSongTruncatedSinceImportCountsByWhatWasHeard() throws {
        let box = try Sandbox(samples: false)
        let music = box.root + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        for (name, hz) in [("1 Cut Early", 440), ("2 Cut Late", 660)] {
            try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", music + "/\(name).wav", "synth", "4", "sine", "\(hz)"])
        }
        try box.succeed("import", music)
        for (name, seconds) in [("1 Cut Early", 1), ("2 Cut Late", 3)] {
            let path = music + "/\(name).wav"
            let header = try ToneTracks.wavData(ofFile: path).count
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: UInt64(size - header + seconds * 44_100 * 4))
            try handle.close()
        }
        let run = try box.boomic("play", "--output", "null")
        #expect(run.status == 0, "\(run)")
        let counts = try box.songs().map { "\(($0.path as NSString).lastPathComponent): \($0.playcount ?? 0) played, \($0.skipcount ?? 0) skipped" }
        #expect(counts == ["1 Cut Early.wav: 0 played, 1 skipped", "2 Cut Late.wav: 1 played, 0 skipped"])
    }
}
