import Foundation

/// One second-order section, normalised so that a0 = 1: y = b0·x + b1·x₁ + b2·x₂ − a1·y₁ − a2·y₂.
///
/// Designed per Robert Bristow-Johnson's Audio EQ Cookbook, in Double, because the low bands of a
/// 44.1 kHz equalizer put poles within 10⁻⁴ of the unit circle, where Float coefficients would
/// move the band by a fraction of a dB.
public struct Biquad: Hashable, Sendable {
    public var b0, b1, b2, a1, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// The cookbook's peaking EQ: `gain` dB at `frequency`, bandwidth set by `q`.
    public static func peaking(frequency: Double, gain: Double, q: Double, sampleRate: Double) -> Biquad {
        let a = pow(10, gain / 40), w0 = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(w0) / (2 * q), c = cos(w0)
        return normalised(b0: 1 + alpha * a, b1: -2 * c, b2: 1 - alpha * a,
                          a0: 1 + alpha / a, a1: -2 * c, a2: 1 - alpha / a)
    }

    /// The cookbook's low shelf with its slope given as Q (Equalizer APO's `LSC … Q`).
    public static func lowShelf(frequency: Double, gain: Double, q: Double, sampleRate: Double) -> Biquad {
        let a = pow(10, gain / 40), w0 = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(w0) / (2 * q), c = cos(w0), s = 2 * a.squareRoot() * alpha
        return normalised(b0: a * ((a + 1) - (a - 1) * c + s), b1: 2 * a * ((a - 1) - (a + 1) * c),
                          b2: a * ((a + 1) - (a - 1) * c - s), a0: (a + 1) + (a - 1) * c + s,
                          a1: -2 * ((a - 1) + (a + 1) * c), a2: (a + 1) + (a - 1) * c - s)
    }

    /// The cookbook's high shelf with its slope given as Q (Equalizer APO's `HSC … Q`).
    public static func highShelf(frequency: Double, gain: Double, q: Double, sampleRate: Double) -> Biquad {
        let a = pow(10, gain / 40), w0 = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(w0) / (2 * q), c = cos(w0), s = 2 * a.squareRoot() * alpha
        return normalised(b0: a * ((a + 1) + (a - 1) * c + s), b1: -2 * a * ((a - 1) + (a + 1) * c),
                          b2: a * ((a + 1) + (a - 1) * c - s), a0: (a + 1) - (a - 1) * c + s,
                          a1: 2 * ((a - 1) - (a + 1) * c), a2: (a + 1) - (a - 1) * c - s)
    }

    private static func normalised(b0: Double, b1: Double, b2: Double, a0: Double, a1: Double, a2: Double) -> Biquad {
        Biquad(b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0)
    }

    /// |H(e^jω)| at `frequency`: the steady-state gain a sine of that frequency sees.
    public func magnitude(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
        let nr = b0 + b1 * c1 + b2 * c2, ni = -(b1 * s1 + b2 * s2)
        let dr = 1 + a1 * c1 + a2 * c2, di = -(a1 * s1 + a2 * s2)
        return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
    }
}
