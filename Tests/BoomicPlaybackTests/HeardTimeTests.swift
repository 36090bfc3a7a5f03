@testable import BoomicPlayback
import Testing

/// What was heard, as a table: output frames written → the song's frame, its seconds (in the
/// range's time) and the seconds heard of the play.
@Suite struct HeardTimeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let time: HeardTime
        let output: Int
        let frame: Int
        let seconds: Double
        let heard: Double
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a whole file from its start", time: HeardTime(rate: 44_100), output: 44_100,
             frame: 44_100, seconds: 1, heard: 1),
        Case(name: "nothing written yet", time: HeardTime(rate: 44_100), output: 0, frame: 0, seconds: 0, heard: 0),
        Case(name: "a range from 1 s: positions count from its start",
             time: HeardTime(rate: 44_100, firstFrame: 44_100, endFrame: 132_300, startFrame: 44_100), output: 22_050,
             frame: 66_150, seconds: 0.5, heard: 0.5),
        Case(name: "after a seek to 2 s, with 0.5 s heard before it",
             time: HeardTime(rate: 44_100, startFrame: 88_200, heardBefore: 22_050), output: 4_410,
             frame: 92_610, seconds: 2.1, heard: 0.6),
        Case(name: "a resume at frame 12,345", time: HeardTime(rate: 44_100, startFrame: 12_345), output: 0,
             frame: 12_345, seconds: 12_345.0 / 44_100, heard: 0),
        Case(name: "speed 2, less what the stretcher carried from the song before",
             time: HeardTime(rate: 44_100, speed: 2, carried: 1_000, decodedFrames: 100_000), output: 11_000,
             frame: 20_000, seconds: 20_000.0 / 44_100, heard: 20_000.0 / 44_100),
        Case(name: "speed 2: never more than was decoded",
             time: HeardTime(rate: 44_100, speed: 2, decodedFrames: 5_000), output: 100_000,
             frame: 5_000, seconds: 5_000.0 / 44_100, heard: 5_000.0 / 44_100),
        Case(name: "speed 0.5 at the start of a song", time: HeardTime(rate: 44_100, speed: 0.5, decodedFrames: 44_100),
             output: 44_100, frame: 22_050, seconds: 0.5, heard: 0.5),
        Case(name: "a 44.1 kHz song on a 48 kHz output", time: HeardTime(rate: 44_100, outputRate: 48_000), output: 48_000,
             frame: 44_100, seconds: 1, heard: 1),
        Case(name: "a 96 kHz song on a 48 kHz output, after a seek",
             time: HeardTime(rate: 96_000, outputRate: 48_000, startFrame: 96_000, heardBefore: 48_000), output: 24_000,
             frame: 144_000, seconds: 1.5, heard: 1),
    ]

    @Test(arguments: cases) func outputFramesAsTheSongsTime(_ c: Case) {
        let frame = c.time.frame(output: c.output)
        #expect(frame == c.frame)
        #expect(abs(c.time.seconds(atFrame: frame) - c.seconds) < 1e-9)
        #expect(abs(c.time.heard(atFrame: frame) - c.heard) < 1e-9)
    }

    /// Seeks land within the range played; times no frame can hold are its ends, not a trap.
    @Test func seeksLandWithinTheRange() {
        let range = HeardTime(rate: 44_100, firstFrame: 44_100, endFrame: 132_300, startFrame: 44_100)
        #expect(range.seekFrame(to: 1) == 88_200)
        #expect(range.seekFrame(to: 60) == 132_300, "past the range's end: its end")
        #expect(range.seekFrame(to: -5) == 44_100, "before its start: its start")
        #expect(range.seekFrame(to: .nan) == 44_100)
        #expect(HeardTime(rate: 44_100).seekFrame(to: 1e308) == 1 << 50, "no end known: as far as a frame goes")
        #expect(HeardTime.frame(at: .infinity, rate: 44_100) == 1 << 50)
    }

    /// A song heard to its end: what was decoded, after what was heard before a seek.
    @Test func aSongHeardToItsEnd() {
        let t = HeardTime(rate: 44_100, firstFrame: 4_410, startFrame: 44_100, decodedFrames: 22_050, heardBefore: 8_820)
        #expect(t.endOfDecoding == 66_150)
        #expect(abs(t.heard(atFrame: t.endOfDecoding) - 0.7) < 1e-9)
        #expect(abs(t.seconds(atFrame: t.endOfDecoding) - 1.4) < 1e-9)
    }
}
