/// One band of a parametric equalizer, as Equalizer APO and AutoEq write them (`PK`, `LSC`, `HSC`).
public struct EQBand: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        case peaking, lowShelf, highShelf
    }

    public var kind: Kind
    /// Centre (peaking) or corner (shelves) frequency, Hz.
    public var frequency: Double
    /// dB at `frequency` (peaking) or of the shelf.
    public var gain: Double
    public var q: Double

    /// The Q of a band added by `--eq` text at a frequency the graphic EQ lacks: one octave wide.
    public static let defaultQ = 1.41

    public init(_ kind: Kind, frequency: Double, gain: Double, q: Double = EQBand.defaultQ) {
        (self.kind, self.frequency, self.gain, self.q) = (kind, frequency, gain, q)
    }

    public func biquad(sampleRate: Double) -> Biquad {
        switch kind {
        case .peaking: .peaking(frequency: frequency, gain: gain, q: q, sampleRate: sampleRate)
        case .lowShelf: .lowShelf(frequency: frequency, gain: gain, q: q, sampleRate: sampleRate)
        case .highShelf: .highShelf(frequency: frequency, gain: gain, q: q, sampleRate: sampleRate)
        }
    }
}

/// One point of an AutoEq `GraphicEQ:` curve: the correction wanted at a frequency.
public struct EQCurvePoint: Codable, Hashable, Sendable {
    public var frequency: Double
    public var gain: Double

    public init(frequency: Double, gain: Double) {
        (self.frequency, self.gain) = (frequency, gain)
    }
}
