import Foundation
import Testing
@testable import BoomicCore

/// The designed chain's computed response: sliders mean what they say at their centres, even
/// when overlapping neighbours move together; parametric bands give their gain at Fc; the
/// automatic preamp takes back the largest boost.
@Suite struct EQDesignTests {
    /// Slider settings including the ones that need compensation: neighbours boosted together,
    /// and neighbours pulled apart.
    static let settings: [[Double]] = [
        [4, 2, -2, -1, 2, 4], [0, 12, 12, 0, 0, 0], [12, 12, 12, 12, 12, 12], [12, -12, 12, -12, 12, -12],
        [0, 0, 0, 6, 0, 0], [-12, -12, 0, 0, 0, 0], [0, 0, 0, 0, 9, 9], [-3, 5, -7, 2, 11, -1],
    ]

    @Test(arguments: [44100.0, 48000.0])
    func eachSliderIsMetAtItsCentreWithinHalfADecibel(sampleRate: Double) {
        for sliders in Self.settings {
            let design = EQSpec(graphic: sliders).design(sampleRate: sampleRate)
            for (f, slider) in zip(EQSpec.graphicFrequencies, sliders) {
                // The preamp lowers every frequency alike; the sliders are what is left.
                let got = design.response(at: f) - design.gain
                #expect(abs(got - slider) <= 0.5, "\(sliders) at \(f) Hz, \(sampleRate) Hz: \(got) dB")
            }
        }
    }

    /// Why the compensation is there: the same bands at the slider gains, uncompensated, miss
    /// by several dB where neighbours overlap.
    @Test func uncompensatedBandsWouldMissTheSliders() {
        let sliders: [Double] = [0, 12, 12, 0, 0, 0]
        let naive = zip(EQSpec.graphicFrequencies, sliders).map {
            Biquad.peaking(frequency: $0.0, gain: $0.1, q: EQSpec.graphicQ, sampleRate: 44100)
        }
        let response = EQDesign(sampleRate: 44100, sections: naive).response(at: 150)
        #expect(response - 12 > 1, "\(response) dB at 150 Hz")
    }

    @Test(arguments: [EQBand.Kind.peaking, .lowShelf, .highShelf])
    func parametricBandsGiveTheirGain(kind: EQBand.Kind) {
        for (f, gain, q) in [(100.0, 6.0, 0.7), (1000, -9, 1.41), (3159, -1.5, 3.89), (8865, 4.9, 1.3)] {
            let band = EQBand(kind, frequency: f, gain: gain, q: q)
            let design = EQSpec(bands: [band]).design(sampleRate: 48000)
            let got: Double
            switch kind {
            case .peaking: got = design.response(at: f) - design.gain
            // A shelf reaches its gain far from its corner, and half of it (in dB) at the corner.
            case .lowShelf: got = design.response(at: f / 64) - design.gain
            case .highShelf: got = design.response(at: 23000) - design.gain
            }
            // (A high shelf at 8.9 kHz has no room above it at 48 kHz to reach its gain.)
            if kind == .peaking || f < 5000 { #expect(abs(got - gain) < 0.3, "\(kind) \(f) Hz: \(got) dB") }
            if kind != .peaking {
                #expect(abs(design.response(at: f) - design.gain - gain / 2) < 0.05)
            }
        }
    }

    @Test func automaticPreampTakesBackTheLargestBoost() {
        for spec in [EQPreset.named("bass")!, EQSpec(graphic: [12, 12, 0, 0, 0, 0]), try! EQSpec.parseBands("60=-6,3k=+9")] {
            let design = spec.design(sampleRate: 44100)
            let peak = stride(from: 10.0, to: 22050, by: 1).map(design.response(at:)).max()!
            #expect(peak <= 1e-6 && peak > -0.05, "\(spec): peak \(peak) dB with preamp \(design.gain)")
        }
        // Cuts only: no preamp beyond the compensation's own small lift of the neighbours, and
        // a flat spec designs to nothing.
        let cut = EQSpec(graphic: [-6, 0, 0, 0, 0, 0]).design(sampleRate: 44100).gain
        #expect(cut <= 0 && cut > -0.5)
        #expect(EQSpec(bands: [EQBand(.peaking, frequency: 1000, gain: -6)]).design(sampleRate: 44100).gain == 0)
        #expect(EQSpec.flat.design(sampleRate: 44100).isIdentity)
        // A file's preamp lower than needed is kept; one that would clip is lowered.
        #expect(EQSpec(bands: [EQBand(.peaking, frequency: 1000, gain: 3)], preamp: -8).design(sampleRate: 48000).gain == -8)
        let loud = EQSpec(bands: [EQBand(.peaking, frequency: 1000, gain: 3)], preamp: 2).design(sampleRate: 48000)
        #expect(abs(loud.gain + 3) < 1e-6)
    }

    /// A band the sample rate cannot carry is left out rather than folded back.
    @Test func bandsAboveTheRateAreLeftOut() {
        let design = EQSpec(graphic: [3, 0, 0, 0, 0, 12]).design(sampleRate: 22050)
        #expect(design.sections.count == 5)
        #expect(abs(design.response(at: 60) - design.gain - 3) < 0.01)
    }
}
