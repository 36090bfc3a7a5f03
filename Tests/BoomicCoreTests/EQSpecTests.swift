import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// `--eq SPEC` as typed: presets case blind, bands, the lookup order, and bad syntax as typed
/// errors of one line.
@Suite struct EQSpecTests {
    @Test func presetsAreFoundCaseBlind() throws {
        #expect(try EQSpec.resolve("ROCK", savedProfile: { _ in nil }, fileContents: { _ in nil }).graphic == [4, 2, -2, -1, 2, 4])
        #expect(try EQSpec.resolve("Jazz", savedProfile: { _ in nil }, fileContents: { _ in nil }) == EQPreset.named("jazz"))
        for name in ["flat", "rock", "pop", "jazz", "classical", "bass", "vocal"] {
            #expect(EQPreset.named(name.uppercased()) != nil, "\(name)")
        }
        #expect(EQPreset.named("Flat")!.isFlat && EQPreset.named("off")!.isFlat)
        #expect(EQPreset.all.allSatisfy { $0.sliders.count == 6 && $0.sliders.allSatisfy(EQSpec.sliderRange.contains) })
    }

    @Test func bandsSetSlidersAndAddPeakingBands() throws {
        let spec = try EQSpec.parseBands("60=+3, 1k=-2,2.4K=+1.5dB,15khz=-12,5k=-1.5,100Hz=2")
        #expect(spec.graphic == [3, 0, 0, -2, 1.5, -12])
        #expect(spec.bands == [EQBand(.peaking, frequency: 5000, gain: -1.5, q: 1.41), EQBand(.peaking, frequency: 100, gain: 2, q: 1.41)])
        #expect(try EQSpec.parseBands("400=-0.5").graphic == [0, 0, -0.5, 0, 0, 0])
    }

    @Test func badSyntaxIsATypedOneLineError() {
        let cases: [(String, EQSpecError)] = [
            ("60=", .badBand("60=")),
            ("60=+3,,1k=1", .badBand("")),
            ("60:+3", .badBand("60:+3")),
            ("60=+3dBx", .badBand("60=+3dBx")),
            ("60=inf", .badBand("60=inf")),
            ("0x3C=1", .badBand("0x3C=1")),
            ("k=1", .badBand("k=1")),
            ("60=+13", .sliderOutOfRange(frequency: 60, gain: 13)),
            ("5k=-12.5", .sliderOutOfRange(frequency: 5000, gain: -12.5)),
            ("10=+1", .frequencyOutOfRange(10)),
            ("25k=+1", .frequencyOutOfRange(25000)),
            ("60=1,60=2", .duplicateFrequency(60)),
            ((1...13).map { "\($0 * 1000 + 100)=1" }.joined(separator: ","), .tooManyBands(13)),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try EQSpec.parseBands(text) }
            do { _ = try EQSpec.parseBands(text) } catch {
                #expect(!error.message.contains("\n") && !error.message.isEmpty)
            }
        }
        #expect(throws: EQSpecError.empty) { try EQSpec.resolve("  ", savedProfile: { _ in nil }, fileContents: { _ in nil }) }
        #expect(throws: EQSpecError.unknown("rokc")) { try EQSpec.resolve("rokc", savedProfile: { _ in nil }, fileContents: { _ in nil }) }
    }

    /// A preset, then a saved profile, then a file, else bands; each is asked only when the
    /// earlier ones have nothing of that name.
    @Test func lookupOrderIsPresetProfileFileBands() throws {
        let profile = EQSpec(graphic: [1, 1, 1, 1, 1, 1])
        let file = "Preamp: -2 dB\nFilter 1: ON PK Fc 1000 Hz Gain 2 dB Q 1\n"
        var asked: [String] = []
        let everything = { (text: String) throws -> EQSpec in
            try EQSpec.resolve(text, savedProfile: { asked.append("profile \($0)"); return profile },
                               fileContents: { asked.append("file \($0)"); return file })
        }
        #expect(try everything("Rock") == EQPreset.named("rock"))
        #expect(asked.isEmpty)
        #expect(try everything("mine") == profile)
        #expect(asked == ["profile mine"])
        asked = []
        let fromFile = try EQSpec.resolve("a.txt", savedProfile: { _ in nil }, fileContents: { _ in file })
        #expect(fromFile.bands == [EQBand(.peaking, frequency: 1000, gain: 2, q: 1)] && fromFile.preamp == -2)
        #expect(try EQSpec.resolve("60=+3", savedProfile: { _ in nil }, fileContents: { _ in nil }).graphic[0] == 3)
        struct LibraryDown: Error {}
        #expect(throws: LibraryDown.self) { try EQSpec.resolve("mine", savedProfile: { _ in throw LibraryDown() }, fileContents: { _ in nil }) }
    }

    /// A profile the library keeps reads back as the same value.
    @Test func specsRoundTripThroughJSON() throws {
        let spec = EQSpec(graphic: [1, -2, 3, 0, 0, 12], bands: [EQBand(.highShelf, frequency: 9000, gain: -3, q: 0.7)],
                          curve: [EQCurvePoint(frequency: 20, gain: -1), EQCurvePoint(frequency: 20000, gain: 2)], preamp: -4)
        #expect(try JSONDecoder().decode(EQSpec.self, from: JSONEncoder().encode(spec)) == spec)
        for damaged in [#"{"graphic": [1, 2, 3]}"#, #"{"graphic": [0,0,0,0,0,0], "bands": [{"kind": "peaking", "frequency": 100, "gain": 3, "q": 0}]}"#,
                        #"{"graphic": [0,0,0,0,0,0], "curve": [{"frequency": 100, "gain": 1}, {"frequency": 50, "gain": 1}]}"#] {
            #expect(throws: DecodingError.self, "\(damaged)") { try JSONDecoder().decode(EQSpec.self, from: Data(damaged.utf8)) }
        }
    }
}
