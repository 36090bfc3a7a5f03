import BoomicAudio
import BoomicCore
import BoomicPlayback
import Foundation
import Testing

/// The sleep timer counts audio time, fades out over its last 10 s and stops, ending the song it
/// cut as a quit (its place is kept, it is not counted as finished).
@Suite struct EngineSleepTests {
    @Test func theTimerFadesOutAndStops() async throws {
        let album = try ToneAlbum(seconds: 3)
        let tape = RecordingSink.Tape()
        // Stopped until the timer is set, as `boomic play` does, so it counts from the first sample.
        // Its clock is the audio rendered, not the wall's: an unpaced sink runs it in no time.
        let engine = PlaybackEngine(queue: album.queue().applying(.stop), sink: RecordingSink(tape: tape), songs: album.resolver())
        engine.send(.sleep(after: 1.5))
        engine.send(.queue(.play(nil)))
        let seen = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        let frames = played.count / 2
        #expect(abs(frames - 66_150) <= 2_048, "\(frames) frames rendered for 1.5 s")
        // 1.5 s before the end, the gain is 1.5/10: the first samples are the tone's scaled so.
        let start = album.tone.prefix(2_000).map { Double($0) * 0.15 }
        let head = played.prefix(2_000).map(Double.init)
        let worst = zip(start, head).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 0.01 * 32_768, "the fade does not start at 15 % (worst \(worst))")
        let tail = played.suffix(200).map { abs(Int($0)) }.max() ?? 0
        #expect(tail < 200, "the end is not faded to silence (peak \(tail))")
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.map(\.reason) == [.finished, .quit], "\(ends.map(\.reason))")
        #expect(engine.status.queue.state == .stopped)
    }
}
