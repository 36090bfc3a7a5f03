import Foundation
import Testing
@testable import BoomicCore

@Suite struct VolumeTests {
    @Test func hundredIsUnityAndZeroIsSilence() {
        #expect(Volume.gain(percent: 100) == 1 && Volume.gain(percent: 150) == 1)
        #expect(Volume.gain(percent: 0) == 0 && Volume.gain(percent: -5) == 0)
        #expect(abs(Volume.decibels(percent: 50) - 20 * log10(0.125)) < 1e-9)
        #expect(abs(Volume.decibels(percent: 10) + 60) < 1e-9)
    }

    @Test func theCurveRisesEverywhere() {
        let steps = stride(from: 0.0, through: 100, by: 0.25).map(Volume.gain(percent:))
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 })
    }
}
