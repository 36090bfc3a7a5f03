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

    private enum CodingKeys: String, CodingKey { case graphic, bands, curve, preamp }

    /// A saved profile is checked as `--eq` text is: six sliders, at most 12 bands, a rising
    /// curve; a damaged one is refused rather than designed wrongly.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        graphic = try c.decode([Double].self, forKey: .graphic)
        bands = try c.decodeIfPresent([EQBand].self, forKey: .bands) ?? []
        curve = try c.decodeIfPresent([EQCurvePoint].self, forKey: .curve) ?? []
        preamp = try c.decodeIfPresent(Double.self, forKey: .preamp)
        let valid = graphic.count == Self.graphicFrequencies.count && bands.count <= Self.maxParametricBands
            && bands.allSatisfy { $0.frequency > 0 && $0.q > 0 }
            && zip(curve, curve.dropFirst()).allSatisfy { $0.frequency < $1.frequency } && curve.allSatisfy { $0.frequency > 0 }
        guard valid else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an EQ profile: six graphic gains, at most 12 bands with positive frequency and Q, a rising curve"))
        }
    }

    /// Nothing to do: no slider moved, no band with a gain, no curve, no preamp.
    public var isFlat: Bool {
        graphic.allSatisfy { $0 == 0 } && bands.allSatisfy { $0.gain == 0 } && curve.isEmpty && (preamp ?? 0) == 0
    }
}
