import BoomicAudio
import Foundation
import Testing

/// Format conversion, measured: resampling keeps a sine's frequency and level and gives exactly
/// round(frames × ratio) frames per song; more bits and copied channels are exact; fewer bits are
/// dithered within 1 LSB of rounding with an error that is white and independent of the signal.
@Suite struct FormatConverterTests {
    static let cd = PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16)

    /// A 1 kHz sine at -6 dBFS, 16-bit stereo at 44.1 kHz, resampled to 48 kHz float: at 1 kHz
    /// the level is 0.5 within 0.01 dB, and what is not the sine is at least 90 dB down.
    @Test func resamplingKeepsFrequencyAndLevel() throws {
        let frames = 44100
        let input: [Int32] = (0..<frames).flatMap { i -> [Int32] in
            let s = Int32((16384 * sin(2 * Double.pi * 1000 * Double(i) / 44100)).rounded())
            return [s, s]
        }
        let converter = try FormatConverter(from: Self.cd, to: .float(sampleRate: 48000, channels: 2))
        #expect(converter.resamplerQuality == .high)
        var out: [Float] = []
        Self.inBlocks(input, channels: 2, sizes: [777, 4096, 1]) { converter.convert($0, into: &out) }
        converter.flush(into: &out)
        #expect(out.count == 48000 * 2)
        // The flush gave soxr's delayed tail: the last milliseconds are the sine, not padding.
        let tail = out.suffix(2 * 48).map { Double($0) * Double($0) }
        #expect((tail.reduce(0, +) / Double(tail.count)).squareRoot() > 0.3, "the end of the song is silent")
        // The middle half second (whole cycles of 1 kHz at 48 kHz), left channel.
        let left = stride(from: 2 * 12000, to: 2 * 36000, by: 2).map { Double(out[$0]) }
        var sinSum = 0.0, cosSum = 0.0
        for (k, x) in left.enumerated() {
            let phase = 2 * Double.pi * 1000 * Double(k + 12000) / 48000
            sinSum += x * sin(phase)
            cosSum += x * cos(phase)
        }
        let level = 2 / Double(left.count) * (sinSum * sinSum + cosSum * cosSum).squareRoot()
        #expect(abs(20 * log10(level / 0.5)) < 0.01, "level \(level)")
        let residual = left.enumerated().map { k, x -> Double in
            let phase = 2 * Double.pi * 1000 * Double(k + 12000) / 48000
            return x - 2 / Double(left.count) * (sinSum * sin(phase) + cosSum * cos(phase))
        }
        let noise = (residual.map { $0 * $0 }.reduce(0, +) / Double(residual.count)).squareRoot()
        #expect(20 * log10(noise / (0.5 / 2.0.squareRoot())) < -85, "residual \(noise)")
    }

    /// Each song comes out exactly round(frames × ratio) long, however it is cut into blocks,
    /// and the converter starts the next song afresh.
    @Test(arguments: [(44100, 48000), (48000, 44100), (96000, 44100), (22050, 48000)])
    func songsLastExactlyTheirLengthTimesTheRatio(rates: (Int, Int)) throws {
        let converter = try FormatConverter(from: PCMFormat(sampleRate: rates.0, channels: 2, bitsPerSample: 24),
                                            to: PCMFormat(sampleRate: rates.1, channels: 2, bitsPerSample: 24))
        #expect(converter.resamplerQuality == .veryHigh)
        for frames in [12345, 7, 100_001] {
            let input = (0..<(2 * frames)).map { Int32(truncatingIfNeeded: ($0 * 7919) % 600_000 - 300_000) }
            var out: [Int32] = []
            Self.inBlocks(input, channels: 2, sizes: [4096, 333]) { converter.convert($0, into: &out) }
            converter.flush(into: &out)
            let expected = Int((Double(frames) * Double(rates.1) / Double(rates.0)).rounded())
            #expect(out.count == 2 * expected, "\(frames) frames at \(rates.0) → \(out.count / 2) at \(rates.1), not \(expected)")
        }
    }

    @Test func moreBitsAndCopiedChannelsAreExact() throws {
        let input: [Int32] = (0..<5000).map { Int32(truncatingIfNeeded: $0 &* 2_654_435_761) >> 16 }
        let up = try FormatConverter(from: Self.cd, to: PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 24))
        #expect(up.isExact)
        var out: [Int32] = []
        input.withUnsafeBufferPointer { up.convert($0, into: &out) }
        #expect(out == input.map { $0 << 8 })

        let mono = try FormatConverter(from: PCMFormat(sampleRate: 44100, channels: 1, bitsPerSample: 16),
                                       to: PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 24))
        out = []
        input.withUnsafeBufferPointer { mono.convert($0, into: &out) }
        #expect(out == input.flatMap { [$0 << 8, $0 << 8] })
    }

    /// Stereo to mono averages; equal sides give the side back exactly, unequal ones the
    /// average within 1 LSB (dithered); mono to 6 channels fills the front pair.
    @Test func channelsAreAveragedAndCopied() throws {
        let down = try FormatConverter(from: Self.cd, to: PCMFormat(sampleRate: 44100, channels: 1, bitsPerSample: 16))
        var out: [Int32] = []
        let pairs: [Int32] = [1000, 1000, -7, -7, 1000, 3001, 32767, -32768, 0, 0]
        pairs.withUnsafeBufferPointer { down.convert($0, into: &out) }
        #expect(out[0] == 1000 && out[1] == -7 && out[4] == 0)
        #expect(abs(Double(out[2]) - 2000.5) <= 1 && abs(Double(out[3]) + 0.5) <= 1)

        let up = try FormatConverter(from: PCMFormat(sampleRate: 44100, channels: 1, bitsPerSample: 16),
                                     to: PCMFormat(sampleRate: 44100, channels: 6, bitsPerSample: 16))
        out = []
        [Int32(5), -9].withUnsafeBufferPointer { up.convert($0, into: &out) }
        #expect(out == [5, 5, 0, 0, 0, 0, -9, -9, 0, 0, 0, 0])
    }

    /// 24 to 16 bits: within 1 LSB of rounding, the error's mean is 0, its power that of TPDF
    /// dither plus rounding (1/4 LSB²), and it is uncorrelated with the signal and with itself.
    @Test func fewerBitsAreDitheredIntoWhiteNoise() throws {
        let converter = try FormatConverter(from: PCMFormat(sampleRate: 48000, channels: 1, bitsPerSample: 24),
                                            to: PCMFormat(sampleRate: 48000, channels: 1, bitsPerSample: 16))
        #expect(!converter.isExact)
        // A quiet sine (a few LSBs of 16 bits), where undithered rounding distorts most.
        let input: [Int32] = (0..<200_000).map { Int32((1000 * sin(Double($0) * 0.0123)).rounded()) + 37 }
        var out: [Int32] = []
        input.withUnsafeBufferPointer { converter.convert($0, into: &out) }
        let exact = input.map { Double($0) / 256 }
        let error = zip(out, exact).map { Double($0) - $1 }
        #expect(zip(out, exact).allSatisfy { abs(Double($0) - $1.rounded()) <= 1 })
        let n = Double(error.count)
        let mean = error.reduce(0, +) / n
        let power = error.map { $0 * $0 }.reduce(0, +) / n
        #expect(abs(mean) < 0.01, "mean error \(mean) LSB")
        #expect(abs(power - 0.25) < 0.02, "error power \(power) LSB²")
        let signalPower = exact.map { $0 * $0 }.reduce(0, +) / n
        let withSignal = zip(error, exact).map { $0 * $1 }.reduce(0, +) / n / (power * signalPower).squareRoot()
        let withItself = zip(error, error.dropFirst()).map { $0 * $1 }.reduce(0, +) / n / power
        #expect(abs(withSignal) < 0.01 && abs(withItself) < 0.01, "correlation with the signal \(withSignal), lag 1 \(withItself)")
    }

    /// Float to integers: exact values stay exact, overs are clipped; integers to float are
    /// scaled by 1/2^(bits-1).
    @Test func floatAndIntegersScaleAndClip() throws {
        let toInt = try FormatConverter(from: .float(sampleRate: 44100, channels: 1), to: PCMFormat(sampleRate: 44100, channels: 1, bitsPerSample: 16))
        var ints: [Int32] = []
        [Float(0.5), -1, 1.5, -2, 0].withUnsafeBufferPointer { toInt.convert($0, into: &ints) }
        #expect(ints == [16384, -32768, 32767, -32768, 0])
        let toFloat = try FormatConverter(from: PCMFormat(sampleRate: 44100, channels: 1, bitsPerSample: 24), to: .float(sampleRate: 44100, channels: 1))
        var floats: [Float] = []
        [Int32(4_194_304), -8_388_608, 1].withUnsafeBufferPointer { toFloat.convert($0, into: &floats) }
        #expect(floats == [0.5, -1, 1 / 8_388_608])
    }

    /// Feeds `input` in blocks of the given sizes in turn (whole frames).
    static func inBlocks<T>(_ input: [T], channels: Int, sizes: [Int], _ body: (UnsafeBufferPointer<T>) -> Void) {
        input.withUnsafeBufferPointer { all in
            var at = 0, k = 0
            while at < all.count {
                let n = min(sizes[k % sizes.count] * channels, all.count - at)
                body(UnsafeBufferPointer(rebasing: all[at..<(at + n)]))
                at += n
                k += 1
            }
        }
    }
}
