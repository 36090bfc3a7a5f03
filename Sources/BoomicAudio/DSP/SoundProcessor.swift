import BoomicCore

/// The player's signal processing: an `EQSpec`'s biquads and one gain (preamp × ReplayGain ×
/// volume), run in place over interleaved Float samples scaled to ±1.0.
///
/// Everything that allocates or does maths beyond a multiply-add (designing the chain, sizing
/// the filter state) happens in `setEQ` and `setFormat`, which the engine calls when the user
/// changes the EQ or a song of another rate or channel count begins; `process` and `setGain` only
/// read and write storage made there, so they are safe on the audio thread. Filter state is
/// Double per channel and section, for the same reason the coefficients are (`Biquad`). When
/// `isIdentity` is true the engine should not call `process` at all and hand the decoder's
/// integers on untouched, which is what keeps playback bit-exact.
public struct SoundProcessor: Sendable {
    public private(set) var eq: EQSpec?
    /// The chain for the current rate; nil when the EQ is off or flat.
    public private(set) var design: EQDesign?
    /// The gain besides the EQ's own (ReplayGain × volume), linear.
    public private(set) var gain: Double
    public private(set) var sampleRate: Int
    public private(set) var channels: Int

    /// b0, b1, b2, a1, a2 per section.
    private var coefficients: [Double] = []
    /// z1, z2 per section, per channel: channel-major.
    private var state: [Double] = []
    /// The gain applied now, and where a ramp is taking it (over `rampRemaining` more frames).
    private var scale: Double = 1
    private var targetScale: Double = 1
    private var rampRemaining = 0

    /// How long a change of gain takes: 10 ms, short enough to feel instant on a volume key, long
    /// enough not to click.
    public static let rampSeconds = 0.01

    public init(eq: EQSpec? = nil, gain: Double = 1, sampleRate: Int, channels: Int) {
        precondition(sampleRate > 0 && channels > 0)
        (self.eq, self.gain, self.sampleRate, self.channels) = (eq, gain, sampleRate, channels)
        redesign()
    }

    /// True when `process` would leave every sample as it is: no EQ sections, and the EQ's gain,
    /// ReplayGain and volume together exactly 1.
    public var isIdentity: Bool { coefficients.isEmpty && scale == 1 && targetScale == 1 }

    /// A new EQ (nil or flat: none); designs it for the current rate and clears the filters.
    public mutating func setEQ(_ eq: EQSpec?) {
        self.eq = eq
        redesign()
    }

    /// ReplayGain × volume, linear (`ReplayGainLevel.linear * Volume.gain(percent:)`). Cheap:
    /// no design, no allocation, filter state kept. With `ramp` (a volume key) the gain glides
    /// there over `rampSeconds` so that the step does not click; without it (a new song's
    /// ReplayGain, set before its first sample) it applies from the next sample.
    public mutating func setGain(_ linear: Double, ramp: Bool = true) {
        gain = linear
        targetScale = (design?.linearGain ?? 1) * gain
        if !ramp || targetScale == scale {
            scale = targetScale
            rampRemaining = 0
        } else {
            rampRemaining = max(1, Int(Double(sampleRate) * Self.rampSeconds))
        }
    }

    /// The format of the samples to come; the chain is designed again only when the rate
    /// changes, and the state is resized (and cleared) when the channel count does.
    public mutating func setFormat(sampleRate: Int, channels: Int) {
        precondition(sampleRate > 0 && channels > 0)
        guard sampleRate != self.sampleRate || channels != self.channels else { return }
        let rateChanged = sampleRate != self.sampleRate
        (self.sampleRate, self.channels) = (sampleRate, channels)
        if rateChanged { redesign() } else { resizeState() }
    }

    /// Forgets the filters' memory (on seek or skip), so the previous position's sound does not
    /// ring into the new one.
    public mutating func reset() {
        state.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    private mutating func redesign() {
        if let eq, !eq.isFlat {
            let d = eq.design(sampleRate: Double(sampleRate))
            design = d
            coefficients = d.sections.flatMap { [$0.b0, $0.b1, $0.b2, $0.a1, $0.a2] }
        } else {
            design = nil
            coefficients = []
        }
        resizeState()
        setGain(gain, ramp: false)
    }

    private mutating func resizeState() {
        state = [Double](repeating: 0, count: coefficients.count / 5 * 2 * channels)
    }

    /// Runs the chain over `samples` (interleaved, a whole number of frames), in place. A
    /// processor is a value: keep the one the audio thread uses unshared, or its first `process`
    /// copies the filter state.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        precondition(samples.count % channels == 0, "a whole number of frames")
        let sections = coefficients.count / 5, channels = channels, frames = samples.count / channels
        let start = scale, target = targetScale, ramp = rampRemaining
        let step = ramp > 0 ? (target - start) / Double(ramp) : 0
        if ramp > 0 {
            if frames >= ramp { (scale, rampRemaining) = (target, 0) } else { (scale, rampRemaining) = (start + step * Double(frames), ramp - frames) }
        }
        @inline(__always) func gain(_ frame: Int) -> Double { frame < ramp ? start + step * Double(frame + 1) : target }
        if sections == 0 {
            if start == 1 && target == 1 { return }
            for frame in 0..<frames {
                let g = gain(frame)
                for i in frame * channels..<(frame + 1) * channels { samples[i] = Float(Double(samples[i]) * g) }
            }
            return
        }
        coefficients.withUnsafeBufferPointer { c in
            state.withUnsafeMutableBufferPointer { z in
                for ch in 0..<channels {
                    let zs = ch * sections * 2
                    for frame in 0..<frames {
                        let index = frame * channels + ch
                        var x = Double(samples[index])
                        for s in 0..<sections {
                            let k = s * 5, zi = zs + s * 2
                            let y = c[k] * x + z[zi]
                            z[zi] = c[k + 1] * x - c[k + 3] * y + z[zi + 1]
                            z[zi + 1] = c[k + 2] * x - c[k + 4] * y
                            x = y
                        }
                        samples[index] = Float(x * gain(frame))
                    }
                }
                // After a long silence the state decays into subnormal numbers, which are many
                // times slower on x86; far below anything audible, they are set to zero.
                for i in z.indices where abs(z[i]) < 1e-200 { z[i] = 0 }
            }
        }
    }
}
