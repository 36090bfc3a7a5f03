import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Equalizer APO / AutoEq files, read from real AutoEq output (`Tests/Fixtures/AutoEq`).
@Suite struct EQFileTests {
    static let folder = Repo.root + "/Tests/Fixtures/AutoEq/"

    static func fixture(_ name: String) throws -> EQSpec {
        let path = folder + name
        let text = try #require(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) })
        return try EQFile.parse(text, path: path)
    }

    /// Every line of AutoEq's parametric output becomes the band it names, in order, and the
    /// designed chain is those bands' biquads behind the file's preamp.
    @Test func parametricLinesParseIntoTheChainTheFileDescribes() throws {
        let spec = try Self.fixture("Sennheiser HD 650 ParametricEQ.txt")
        #expect(spec.preamp == -6.1)
        #expect(spec.graphic.allSatisfy { $0 == 0 } && spec.curve.isEmpty)
        let expected: [EQBand] = [
            EQBand(.lowShelf, frequency: 105, gain: 6.4, q: 0.70), EQBand(.peaking, frequency: 8865, gain: 4.9, q: 1.30),
            EQBand(.peaking, frequency: 121, gain: -3.1, q: 0.50), EQBand(.peaking, frequency: 37, gain: 0.7, q: 3.76),
            EQBand(.peaking, frequency: 3159, gain: -1.5, q: 3.89), EQBand(.highShelf, frequency: 10000, gain: -2.1, q: 0.70),
            EQBand(.peaking, frequency: 1220, gain: -1.2, q: 2.53), EQBand(.peaking, frequency: 2048, gain: 1.1, q: 3.26),
            EQBand(.peaking, frequency: 584, gain: 0.4, q: 1.15), EQBand(.peaking, frequency: 5316, gain: -1.0, q: 6.00),
        ]
        #expect(spec.bands == expected)
        let design = spec.design(sampleRate: 48000)
        #expect(design.sections == expected.map { $0.biquad(sampleRate: 48000) })
        // AutoEq's preamp nearly covers the largest boost of these biquads; the design lowers it
        // by what is missing (0.2 dB) so that the chain never goes above 0 dB.
        #expect(design.gain <= -6.1 && design.gain > -6.4)
        #expect((10...23900).allSatisfy { design.response(at: Double($0)) <= 1e-9 })
    }

    @Test func graphicEQLineParsesEveryPoint() throws {
        let spec = try Self.fixture("Sennheiser HD 650 GraphicEQ.txt")
        #expect(spec.curve.count == 127)
        #expect(spec.curve.first == EQCurvePoint(frequency: 20, gain: -0.2))
        #expect(spec.curve.last == EQCurvePoint(frequency: 19871, gain: -15.6))
        #expect(spec.bands.isEmpty && spec.preamp == nil)
    }

    /// The fitted bank follows the curve within ±1 dB at every point from 20 Hz to 16 kHz, with
    /// far fewer sections than points.
    @Test(arguments: [44100.0, 48000.0], ["Sennheiser HD 650 GraphicEQ.txt", "Etymotic ER4XR GraphicEQ.txt"])
    func graphicEQCurveIsFollowedWithinOneDecibel(sampleRate: Double, file: String) throws {
        let spec = try Self.fixture(file)
        let design = spec.design(sampleRate: sampleRate)
        #expect(design.sections.count < 60)
        var worst = 0.0
        for point in spec.curve where point.frequency <= 16000 {
            let error = design.response(at: point.frequency) - point.gain
            worst = max(worst, abs(error))
            #expect(abs(error) <= 1, "\(point.frequency) Hz: \(design.response(at: point.frequency)) dB, curve \(point.gain) dB")
        }
        #expect(worst < 0.5, "worst \(worst) dB")
        // Between the points too (no ripple from bands fighting each other): within 1 dB of the
        // curve read as Equalizer APO reads it, every 1/24 octave.
        var f = 20.0
        while f <= 16000 {
            let error = design.response(at: f) - EQSpec.interpolate(spec.curve, at: f)
            #expect(abs(error) <= 1, "\(f) Hz: \(error) dB off")
            f *= pow(2, 1.0 / 24)
        }
        let loudest = (20...20000).map { design.response(at: Double($0)) }.max()!
        #expect(loudest < 1, "\(loudest) dB")
    }

    @Test func offFiltersAreSkippedAndBadLinesNamed() throws {
        let text = """
        # made by hand
        Preamp: -3 dB
        Filter 1: OFF PK Fc 50 Hz Gain 9 dB Q 1
        Filter 2: ON LSC Fc 80 Hz Gain 3 dB Q 0.71
        Filter: ON HS Fc 8000 Hz Gain -2 dB
        """
        let spec = try EQFile.parse(text, path: "x.txt")
        #expect(try EQFile.parse("\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"), path: "x.txt") == spec)
        #expect(spec.bands == [EQBand(.lowShelf, frequency: 80, gain: 3, q: 0.71), EQBand(.highShelf, frequency: 8000, gain: -2, q: 0.707)])
        let bad: [(String, Int)] = [
            ("Preamp: -3 dB\nFilter 1: ON LP Fc 80 Hz", 2),
            ("Filter 1: ON PK Fc 80 Hz Gain 3 dB", 1),
            ("Filter 1: MAYBE PK Fc 80 Hz Gain 3 dB Q 1", 1),
            ("\n\nChannel: L", 3),
            ("GraphicEQ: 20 -1; 10 2", 1),
            ("GraphicEQ: 20 -1; 30", 1),
            ("Preamp: loud", 1),
        ]
        for (text, line) in bad {
            #expect("\(text)") {
                _ = try EQFile.parse(text, path: "x.txt")
            } throws: { error in
                guard case .badFile(path: "x.txt", line: line, _) = error as? EQSpecError else { return false }
                return !(error as! EQSpecError).message.contains("\n")
            }
        }
        #expect(throws: EQSpecError.notAnEQFile(path: "x.txt")) { try EQFile.parse("# nothing\n", path: "x.txt") }
    }
}
