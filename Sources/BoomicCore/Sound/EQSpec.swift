/// What the user asked the equalizer for, before any sample rate is known: the six graphic
/// sliders, parametric bands, an imported `GraphicEQ:` curve and a file's preamp. A plain value,
/// so that the library can keep it as a saved EQ profile and the player can design it again for
/// each sample rate (`design(sampleRate:)`).
public struct EQSpec: Codable, Hashable, Sendable {
    /// The graphic EQ's band centres, Hz.
    public static let graphicFrequencies: [Double] = [60, 150, 400, 1000, 2400, 15000]
    /// How far a slider goes, dB.
    public static let sliderRange: ClosedRange<Double> = -12...12
    public static let maxParametricBands = 12

    /// One gain per `graphicFrequencies` entry, dB; what the whole chain gives at each centre.
    public var graphic: [Double]
    public var bands: [EQBand]
    /// An AutoEq `GraphicEQ:` curve, followed by a fitted filter bank; empty when none.
    public var curve: [EQCurvePoint]
    /// A file's `Preamp:`, dB; never allowed to exceed what keeps the chain from clipping.
    public var preamp: Double?

    public init(graphic: [Double] = Array(repeating: 0, count: EQSpec.graphicFrequencies.count),
                bands: [EQBand] = [], curve: [EQCurvePoint] = [], preamp: Double? = nil) {
        precondition(graphic.count == Self.graphicFrequencies.count, "one gain per graphic band")
        (self.graphic, self.bands, self.curve, self.preamp) = (graphic, bands, curve, preamp)
    }

    public static let flat = EQSpec()

    /// Nothing to do: no slider moved, no band with a gain, no curve, no preamp.
    public var isFlat: Bool {
        graphic.allSatisfy { $0 == 0 } && bands.allSatisfy { $0.gain == 0 } && curve.isEmpty && (preamp ?? 0) == 0
    }
}
