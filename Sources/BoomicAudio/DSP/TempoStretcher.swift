import CSoundTouch

/// Tempo without pitch change (`boomic play --speed`), through SoundTouch: float samples,
/// interleaved, ±1.0, at one rate and channel count.
///
/// SoundTouch works on overlapping windows, so what goes in comes out some tens of
/// milliseconds later: `backlogFrames` says how much is inside, which the engine counts when it
/// turns frames heard into the song's own time. Songs flow through it without a break (gapless);
/// `flush` belongs at the very end of the queue only (it pads with silence), `clear` to a seek or
/// a skip. SoundTouch keeps its own buffers once grown; `process` appends to an array the caller
/// reserved, so neither allocates in the steady state.
///
/// Not thread-safe, like `FormatConverter`: the engine's decode thread owns it.
public final class TempoStretcher {
    public let sampleRate: Int
    public let channels: Int
    public private(set) var tempo: Double
    private let touch: OpaquePointer

    /// The speeds `--speed` accepts: beyond them SoundTouch's artefacts grow quickly.
    public static let range: ClosedRange<Double> = 0.5...2.0

    /// Nil when SoundTouch refuses the format (it takes 1 to 16 channels).
    public init?(sampleRate: Int, channels: Int, tempo: Double) {
        guard sampleRate > 0, (1...16).contains(channels),
              let t = cst_create(UInt32(sampleRate), UInt32(channels)) else { return nil }
        touch = t
        self.sampleRate = sampleRate
        self.channels = channels
        self.tempo = tempo
        cst_set_tempo(t, tempo)
    }

    deinit { cst_destroy(touch) }

    /// Takes effect on the samples put in from now on.
    public func setTempo(_ tempo: Double) {
        guard tempo != self.tempo else { return }
        self.tempo = tempo
        cst_set_tempo(touch, tempo)
    }

    /// Puts `input` (whole frames) in and appends whatever is ready to `out`.
    public func process(_ input: UnsafeBufferPointer<Float>, into out: inout [Float]) {
        precondition(input.count % channels == 0, "a whole number of frames")
        if let base = input.baseAddress, !input.isEmpty {
            cst_put(touch, base, UInt32(input.count / channels))
        }
        receive(into: &out)
    }

    /// Pushes the last samples through, padded with silence, and appends them to `out`.
    public func flush(into out: inout [Float]) {
        cst_flush(touch)
        receive(into: &out)
    }

    /// Forgets everything inside (a seek, a skip, a stop).
    public func clear() { cst_clear(touch) }

    /// What is inside and not yet given out, in frames of output: what a song started now waits
    /// behind before its first sample is heard.
    public var backlogFrames: Int {
        Int((Double(cst_unprocessed(touch)) / tempo).rounded()) + Int(cst_available(touch))
    }

    private func receive(into out: inout [Float]) {
        let ready = Int(cst_available(touch))
        guard ready > 0 else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: ready * channels))
        let got = out.withUnsafeMutableBufferPointer { b in
            Int(cst_receive(touch, b.baseAddress! + start, UInt32(ready)))
        }
        out.removeLast((ready - got) * channels)
    }
}
