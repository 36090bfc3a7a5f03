import BoomicAudio
import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// The processor measured on sines, as a listener would hear them: the gain a sine of each
/// frequency gets, once the filters have settled.
@Suite struct SoundProcessorTests {
    /// The gain, dB, that `processor` gives a sine of `frequency` (0.4 s; the amplitude is fitted
    /// by least squares on the last 0.1 s, after the filters' ringing has died away).
    static func measure(_ processor: inout SoundProcessor, frequency: Double, amplitude: Double = 0.25) -> Double {
        let rate = Double(processor.sampleRate), frames = Int(rate * 0.4)
        var samples = sine(frequency, rate: rate, frames: frames, amplitude: amplitude)
        process(&processor, &samples, block: 512)
        return 20 * log10(fittedAmplitude(samples.suffix(Int(rate * 0.1)), frequency: frequency, rate: rate, start: frames - Int(rate * 0.1)) / amplitude)
    }

    static func sine(_ frequency: Double, rate: Double, frames: Int, amplitude: Double) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / rate)) }
    }

    /// In blocks as the engine would hand them over.
    static func process(_ processor: inout SoundProcessor, _ samples: inout [Float], block: Int) {
        samples.withUnsafeMutableBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + block * processor.channels)
                processor.process(UnsafeMutableBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    /// a·sin + b·cos fitted to `samples` (which start at frame `start`): √(a² + b²).
    static func fittedAmplitude(_ samples: ArraySlice<Float>, frequency: Double, rate: Double, start: Int) -> Double {
        var ss = 0.0, sc = 0.0, cc = 0.0, ys = 0.0, yc = 0.0
        for (i, y) in zip(start..., samples) {
            let w = 2 * .pi * frequency * Double(i) / rate, s = sin(w), c = cos(w)
            ss += s * s; sc += s * c; cc += c * c; ys += Double(y) * s; yc += Double(y) * c
        }
        let det = ss * cc - sc * sc
        let a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det
        return (a * a + b * b).squareRoot()
    }

    @Test(arguments: [44100, 48000])
    func aSineAtEachGraphicCentreGetsItsSlider(sampleRate: Int) {
        for sliders: [Double] in [[0, 12, 12, 0, 0, 0], [4, 2, -2, -1, 2, 4], [12, -12, 12, -12, 12, -12], [-6, -6, 9, 9, 9, 0]] {
            var processor = SoundProcessor(eq: EQSpec(graphic: sliders), sampleRate: sampleRate, channels: 1)
            let preamp = processor.design!.gain
            for (f, slider) in zip(EQSpec.graphicFrequencies, sliders) {
                processor.reset()
                let got = Self.measure(&processor, frequency: f) - preamp
                #expect(abs(got - slider) <= 0.5, "\(sliders) at \(f) Hz, \(sampleRate) Hz: measured \(got) dB")
            }
        }
    }

    @Test func aParametricBandGivesItsGainAtFc() {
        for band in [EQBand(.peaking, frequency: 1000, gain: -9, q: 1.41), EQBand(.peaking, frequency: 3159, gain: 7.5, q: 3.89)] {
            var processor = SoundProcessor(eq: EQSpec(bands: [band]), sampleRate: 44100, channels: 1)
            let got = Self.measure(&processor, frequency: band.frequency) - processor.design!.gain
            #expect(abs(got - band.gain) < 0.05, "\(band): measured \(got) dB")
        }
    }

    /// AutoEq's HD 650 curve through the processor, on sines between and on its points.
    @Test func aGraphicEQCurveIsFollowedOnSines() throws {
        let path = Repo.root + "/Tests/Fixtures/AutoEq/Sennheiser HD 650 GraphicEQ.txt"
        let spec = try EQSpec.resolve(path, savedProfile: { _ in nil })
        var processor = SoundProcessor(eq: spec, sampleRate: 44100, channels: 1)
        for point in spec.curve where [97.0, 453, 1216, 3086, 5637, 9230, 14305].contains(point.frequency) {
            processor.reset()
            let got = Self.measure(&processor, frequency: point.frequency)
            #expect(abs(got - point.gain) <= 1, "\(point.frequency) Hz: measured \(got) dB, curve \(point.gain) dB")
        }
    }

    /// The tag's gain, measured, within 0.1 dB; and a gain the peak says would clip does not.
    @Test func replayGainChangesTheLevelByTheTag() {
        let tags = ReplayGainTags(trackGain: -7.3, trackPeak: 0.6, albumGain: -4.1, albumPeak: 0.7)
        for (mode, shuffle, expected) in [(ReplayGainMode.track, false, -7.3), (.album, false, -4.1), (.auto, false, -4.1), (.auto, true, -7.3)] {
            let level = ReplayGain.level(mode: mode, tags: tags, shuffle: shuffle)
            var processor = SoundProcessor(gain: level.linear, sampleRate: 48000, channels: 1)
            #expect(abs(Self.measure(&processor, frequency: 997) - expected) < 0.1, "\(mode) shuffle \(shuffle)")
        }
        let loud = ReplayGainTags(trackGain: 9, trackPeak: 0.8)
        let level = ReplayGain.level(mode: .track, tags: loud, shuffle: false, preamp: 3)
        var processor = SoundProcessor(gain: level.linear, sampleRate: 48000, channels: 1)
        var samples = Self.sine(440, rate: 48000, frames: 4800, amplitude: 0.8)
        Self.process(&processor, &samples, block: 256)
        #expect(samples.map(abs).max()! <= 1)
        let missing = ReplayGain.level(mode: .album, tags: ReplayGainTags(), shuffle: false, preamp: 6, missing: -5)
        var quieter = SoundProcessor(gain: missing.linear, sampleRate: 48000, channels: 1)
        #expect(abs(Self.measure(&quieter, frequency: 997) + 5) < 0.1)
    }

    /// Full-scale sines through boosting EQs, at the boosts and around them, stay within ±1.0
    /// once the filters have settled; the first milliseconds of a sine starting abruptly at full
    /// scale ring over by less than 0.1 dB (documented in playback.md).
    @Test func theAutomaticPreampKeepsFullScaleFromClipping() {
        for spec in [EQPreset.named("bass")!, EQSpec(graphic: [12, 12, 0, 0, 0, 12]), try! EQSpec.parseBands("3k=+12,400=+6")] {
            var processor = SoundProcessor(eq: spec, sampleRate: 44100, channels: 1)
            for f in [40.0, 60, 85, 150, 400, 1000, 2400, 3000, 8000, 15000] {
                processor.reset()
                var samples = Self.sine(f, rate: 44100, frames: 13230, amplitude: 1)
                Self.process(&processor, &samples, block: 1024)
                let settled = samples[4410...].map(abs).max()!, onset = samples.map(abs).max()!
                #expect(settled <= 1, "\(spec.graphic) \(spec.bands.map(\.frequency)) at \(f) Hz: peak \(settled)")
                #expect(onset <= pow(10, 0.1 / 20), "\(spec.graphic) \(spec.bands.map(\.frequency)) at \(f) Hz: onset \(onset)")
            }
        }
    }

    @Test func flatAtUnityIsIdentityAndLeavesSamplesAlone() {
        let volume100 = Volume.gain(percent: 100), off = ReplayGain.level(mode: .off, tags: ReplayGainTags(trackGain: -6), shuffle: false)
        for eq in [nil, EQSpec.flat, EQPreset.named("FLAT")] {
            var processor = SoundProcessor(eq: eq, gain: off.linear * volume100, sampleRate: 44100, channels: 2)
            #expect(processor.isIdentity)
            var samples: [Float] = (0..<1000).map { Float(sin(Double($0))) * 0.999 }
            let before = samples
            Self.process(&processor, &samples, block: 100)
            #expect(samples == before)
        }
        var lower = SoundProcessor(gain: Volume.gain(percent: 99), sampleRate: 44100, channels: 2)
        #expect(!lower.isIdentity)
        lower.setGain(1, ramp: false)
        #expect(lower.isIdentity)
        #expect(!SoundProcessor(eq: EQPreset.named("rock"), sampleRate: 44100, channels: 2).isIdentity)
    }

    /// A volume change glides over 10 ms instead of stepping (no click), then holds exactly; a
    /// ramp back to unity ends in the identity.
    @Test func gainChangesRampWithoutSteps() {
        var p = SoundProcessor(sampleRate: 44100, channels: 2)
        p.setGain(0.5)
        #expect(!p.isIdentity)
        var ones = [Float](repeating: 1, count: 2 * 1000)
        Self.process(&p, &ones, block: 100)
        let left = stride(from: 0, to: ones.count, by: 2).map { ones[$0] }
        #expect(zip(left, left.dropFirst()).allSatisfy { $0 >= $1 && $0 - $1 < 0.5 / 400 })
        #expect(left[0] < 1 && left[0] > 0.99 && left[441...].allSatisfy { $0 == 0.5 })
        #expect(zip(left, stride(from: 1, to: ones.count, by: 2).map { ones[$0] }).allSatisfy { $0 == $1 })
        p.setGain(1)
        var more = [Float](repeating: 1, count: 2 * 1000)
        Self.process(&p, &more, block: 1000)
        #expect(p.isIdentity && more.last == 1 && more[0] < 1)
    }

    /// Block sizes do not change the output; channels are filtered apart; a new rate gets a new
    /// design; reset forgets the past.
    @Test func blocksChannelsRatesAndReset() {
        let spec = EQPreset.named("vocal")!
        var input: [Float] = []
        for i in 0..<6000 { input += [Float(sin(Double(i) * 0.05)) * 0.5, Float(sin(Double(i) * 0.3)) * 0.2, i == 0 ? 1 : 0] }
        var whole = input, blocks = input
        var a = SoundProcessor(eq: spec, sampleRate: 44100, channels: 3), b = a
        Self.process(&a, &whole, block: 6000)
        Self.process(&b, &blocks, block: 37)
        #expect(whole == blocks)
        // Channel 2's impulse response is the same whatever the others carry.
        var alone = [Float](repeating: 0, count: input.count)
        alone[2] = 1
        var c = SoundProcessor(eq: spec, sampleRate: 44100, channels: 3)
        Self.process(&c, &alone, block: 512)
        #expect(stride(from: 2, to: input.count, by: 3).allSatisfy { whole[$0] == alone[$0] })

        var p = SoundProcessor(eq: EQSpec(graphic: [0, 0, 0, 0, 0, 12]), sampleRate: 44100, channels: 1)
        p.setFormat(sampleRate: 96000, channels: 1)
        #expect(p.design?.sampleRate == 96000)
        #expect(abs(Self.measure(&p, frequency: 15000) - p.design!.gain - 12) <= 0.5)
        p.reset()
        var silence = [Float](repeating: 0, count: 512)
        Self.process(&p, &silence, block: 512)
        #expect(silence.allSatisfy { $0 == 0 })
    }
}
