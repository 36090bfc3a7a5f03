import BoomicAudio
import BoomicCore
@testable import BoomicPlayback
import BoomicTestSupport
import Foundation
import Testing

/// `--speed`: tempo changes and pitch does not; positions and seconds heard stay in the song's
/// own time; speed 1 is bit-exact.
@Suite struct EngineSpeedTests {
    /// Two tracks cut at an odd frame from one 441 Hz sine, 2.5 s in all.
    struct Sine {
        let dir = TempDir("boomic-speed")
        let songs: [PlayableSong]
        let frames: [Int]

        init() throws {
            let tone = dir.path + "/sine.wav"
            try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", tone, "synth", "2.5", "sine", "441", "gain", "-6"])
            let cut = 51_017, total = try ToneTracks.frames(ofWAV: tone)
            frames = [cut, total - cut]
            try toolOutput(["sox", tone, dir.path + "/a.wav", "trim", "0s", "\(cut)s"])
            try toolOutput(["sox", tone, dir.path + "/b.wav", "trim", "\(cut)s"])
            var random = SplitMix64(seed: 11)
            let folder = dir.path
            songs = ["a", "b"].map { PlayableSong(id: SongID(random.uuid()), path: folder + "/\($0).wav") }
        }

        func resolver() -> @Sendable (SongID) -> PlayableSong? {
            let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
            return { byID[$0] }
        }

        var queue: PlayQueue { PlayQueue(seed: 1).applying(.add(songs.map(\.id), at: .end)).applying(.play(nil)) }
    }

    /// Frequency of the left channel from its rising zero crossings, away from the ends.
    static func frequency(_ stereo: [Int32], rate: Double) -> Double {
        let left = stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
        let body = left.dropFirst(left.count / 10).dropLast(left.count / 10)
        var crossings: [Int] = []
        var previous = body.first ?? 0
        for (i, x) in zip(body.indices, body) {
            if previous < 0 && x >= 0 { crossings.append(i) }
            previous = x
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * rate / Double(last - first)
    }

    @Test(arguments: [2.0, 0.5])
    func tempoChangesAndPitchDoesNot(speed: Double) async throws {
        let sine = try Sine()
        let tape = RecordingSink.Tape()
        let engine = PlaybackEngine(queue: sine.queue, sink: RecordingSink(tape: tape),
                                    sound: SoundSettings(speed: speed), songs: sine.resolver())
        let seen = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        let source = sine.frames.reduce(0, +)
        let expected = Double(source) / speed
        let out = Double(played.count / 2)
        #expect(abs(out - expected) / expected < 0.03, "\(out) frames out of \(source) at speed \(speed)")
        let f = Self.frequency(played, rate: 44_100)
        #expect(abs(f - 441) / 441 < 0.01, "\(f) Hz at speed \(speed)")
        #expect(tape.formats.withLock { $0 }.allSatisfy { $0.isFloat })
        // Gapless through the stretcher: no run of silence between the two songs.
        let left = stride(from: 0, to: played.count, by: 2).map { abs(Int(played[$0])) }
        let body = left.dropFirst(left.count / 20).dropLast(left.count / 20)
        var quiet = 0, longest = 0
        for x in body { quiet = x < 200 ? quiet + 1 : 0; longest = max(longest, quiet) }
        #expect(longest < 60, "a silence of \(longest) frames inside the stream")
        // The songs' own seconds, not the seconds they took.
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.map(\.reason) == [.finished, .finished])
        for (end, frames) in zip(ends, sine.frames) {
            #expect(abs(end.heard - Double(frames) / 44_100) < 0.01, "heard \(end.heard) s of \(Double(frames) / 44_100) s")
        }
    }

    /// Quitting half-way through the output at speed 2 reports the song's position, not the time
    /// it took: about twice the seconds written.
    @Test func positionsStayInSongTime() async throws {
        let sine = try Sine()
        let tape = RecordingSink.Tape()
        tape.allow(20_000)
        let engine = PlaybackEngine(queue: sine.queue, sink: RecordingSink(tape: tape),
                                    sound: SoundSettings(speed: 2), songs: sine.resolver())
        // The sink takes slots until the next one no longer fits the allowance, then holds; a
        // whole turn after, the status counts what it took.
        try await waitUntil("tape.held.load(ordering: .acquiring) == 1") { tape.held.load(ordering: .acquiring) == 1 }
        try await aWholeTurn(of: engine)
        let status = engine.status
        let written = Double(tape.frames) / 44_100
        #expect(abs(status.position - 2 * written) < 0.15, "position \(status.position) s (frame \(status.frame), entry \(String(describing: status.entry))) after \(written) s written at speed 2")
        tape.abort()
        engine.quit()
    }

    /// Linking SoundTouch (built with -ffast-math) must not flush subnormal numbers to zero in the
    /// rest of the program: it did, and JSON and query numbers went wrong.
    @Test(arguments: [Double(bitPattern: 1), Double.leastNormalMagnitude / 4])
    func subnormalNumbersSurvive(tiny: Double) throws {
        _ = try #require(TempoStretcher(sampleRate: 44_100, channels: 2, tempo: 1.5))
        #expect(tiny * 2 != 0 && tiny + tiny == tiny * 2, "subnormal \(tiny) flushed to zero")
    }

    /// Speed exactly 1 leaves SoundTouch out: the song's own integers reach the sink.
    @Test func speedOneIsBitExact() async throws {
        let album = try ToneAlbum(seconds: 3)
        let tape = RecordingSink.Tape()
        let engine = PlaybackEngine(queue: album.queue(), sink: RecordingSink(tape: tape),
                                    sound: SoundSettings(speed: 1), songs: album.resolver())
        _ = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        #expect(firstDifference(played, album.tone) == nil)
        #expect(!tape.formats.withLock { $0 }.contains { $0.isFloat })
    }
}
