import Foundation
import Testing
@testable import BoomicAudio

/// libebur128 over unscaled Int32 samples: a 1 kHz sine of peak 0.1 on both channels is
/// -19.99 LUFS (PLATFORM.md), whatever the sample width it arrives in.
@Suite struct LoudnessMeterTests {
    static func sine(bits: Int, amplitude: Double, seconds: Double = 3, rate: Int = 48_000) -> [Int32] {
        let full = Double(sign: .plus, exponent: bits - 1, significand: 1)
        return (0..<Int(seconds * Double(rate))).flatMap { i -> [Int32] in
            let v = Int32((amplitude * full * sin(2 * .pi * 1_000 * Double(i) / Double(rate))).rounded())
            return [v, v]
        }
    }

    @Test(arguments: [16, 24, 32])
    func knownSine(bits: Int) throws {
        let meter = try LoudnessMeter(format: PCMFormat(sampleRate: 48_000, channels: 2, bitsPerSample: bits))
        let samples = Self.sine(bits: bits, amplitude: 0.1)
        // In blocks of odd sizes, as a decoder hands them over.
        var i = 0
        while i < samples.count {
            let n = min(7_777, (samples.count - i) / 2)
            meter.add(Array(samples[i..<(i + 2 * n)]), frames: n)
            i += 2 * n
        }
        let l = try #require(meter.loudness)
        #expect(abs(l - -19.99) < 0.01, "\(l)")
        #expect(abs(meter.samplePeak - 0.1) < 0.0001)
    }

    @Test func silenceHasNoLoudnessAndAnAlbumIsMeasuredAsOne() throws {
        let format = PCMFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 16)
        let quiet = try LoudnessMeter(format: format), soft = try LoudnessMeter(format: format), loud = try LoudnessMeter(format: format)
        quiet.add([Int32](repeating: 0, count: 96_000), frames: 48_000)
        #expect(quiet.loudness == nil)
        let a = Self.sine(bits: 16, amplitude: 0.1), b = Self.sine(bits: 16, amplitude: 0.2)
        soft.add(a, frames: a.count / 2)
        loud.add(b, frames: b.count / 2)
        let album = try #require(LoudnessMeter.loudness(of: [soft, loud]))
        // Equal lengths, powers 0.01 and 0.04: the mean is 3.98 dB above the soft one.
        #expect(abs(album - (-19.99 + 3.98)) < 0.02, "\(album)")
    }
}
