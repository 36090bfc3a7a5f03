import Foundation

/// The player's volume, 0–100, as a linear gain. 100 is exactly 1 (so the engine can skip all
/// processing and stay bit-exact); below it the gain is the cube of the fraction, as
/// PulseAudio's and many players' software volumes do: the cube is close to how loudness is
/// heard (50 is −18 dB, 25 is −36 dB, 10 is −60 dB, 1 is −120 dB), where a linear gain would put
/// all the audible change in the bottom fifth. 0 is silence.
public enum Volume {
    public static let range = 0...100

    /// The linear gain for `percent`, clamped to 0–100.
    public static func gain(percent: Double) -> Double {
        let v = min(max(percent, 0), 100)
        if v == 100 { return 1 }
        let x = v / 100
        return x * x * x
    }

    /// The same in dB (−∞ at 0).
    public static func decibels(percent: Double) -> Double {
        20 * log10(gain(percent: percent))
    }
}
