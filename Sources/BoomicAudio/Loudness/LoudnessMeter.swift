import CEBUR128

/// EBU R128 integrated loudness and sample peak of one stream, over libebur128.
///
/// Not in libebur128's histogram mode, whose bins (0.075 LU wide) put a sine of known loudness
/// 0.04 dB off: the exact mode keeps one energy per 100 ms block instead (29 KB per hour of
/// audio), so an album's meters can still be kept until the album's loudness is taken from all of
/// them at once (`loudness(of:)`, which is not the mean of the tracks': R128 gates the album as one).
/// One owner at a time: `add` is not thread-safe, as libebur128's state is not.
public final class LoudnessMeter {
    public let format: PCMFormat
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// Scaled samples for libebur128, grown once to the largest block added.
    private var scaled: [Double] = []
    private let scale: Double

    public init(format: PCMFormat) throws(AudioError) {
        self.format = format
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue)
        guard format.channels > 0, format.sampleRate > 0, (1...32).contains(format.bitsPerSample),
              let s = ebur128_init(UInt32(format.channels), UInt(format.sampleRate), mode) else {
            throw AudioError(path: "", reason: "cannot measure the loudness of audio in format \(format)")
        }
        state = s
        // Unscaled Int32 samples of `bits` bits (PCMFormat): full scale is 2^(bits-1).
        scale = 1 / Double(sign: .plus, exponent: format.bitsPerSample - 1, significand: 1)
    }

    deinit { ebur128_destroy(&state) }

    /// Adds `frames` interleaved frames from the start of `samples`.
    public func add(_ samples: [Int32], frames: Int) {
        let n = frames * format.channels
        guard n > 0 else { return }
        if scaled.count < n { scaled = [Double](repeating: 0, count: n) }
        for i in 0..<n { scaled[i] = Double(samples[i]) * scale }
        _ = scaled.withUnsafeBufferPointer { ebur128_add_frames_double(state, $0.baseAddress, frames) }
    }

    /// The integrated loudness in LUFS; nil for silence (or nothing added), which has none.
    public var loudness: Double? {
        var out = 0.0
        guard ebur128_loudness_global(state, &out) == Int32(EBUR128_SUCCESS.rawValue), out.isFinite else { return nil }
        return out
    }

    /// The largest absolute sample value over all channels, as a ratio of full scale (1.0).
    public var samplePeak: Double {
        var peak = 0.0
        for c in 0..<format.channels {
            var p = 0.0
            if ebur128_sample_peak(state, UInt32(c), &p) == Int32(EBUR128_SUCCESS.rawValue) { peak = max(peak, p) }
        }
        return peak
    }

    /// The integrated loudness of several streams as one (an album), in LUFS; nil for silence.
    public static func loudness(of meters: [LoudnessMeter]) -> Double? {
        guard !meters.isEmpty else { return nil }
        var states: [UnsafeMutablePointer<ebur128_state>?] = meters.map(\.state)
        var out = 0.0
        let status = states.withUnsafeMutableBufferPointer { ebur128_loudness_global_multiple($0.baseAddress, $0.count, &out) }
        guard status == Int32(EBUR128_SUCCESS.rawValue), out.isFinite else { return nil }
        return out
    }

    /// Decodes the whole file at `path` into a new meter, `blockFrames` at a time.
    public static func measure(_ path: String, blockFrames: Int = 16_384) throws(AudioError) -> LoudnessMeter {
        let decoder = try Decoders.open(path)
        let meter: LoudnessMeter
        do { meter = try LoudnessMeter(format: decoder.format) } catch { throw AudioError(path: path, reason: error.reason) }
        var block: [Int32] = []
        block.reserveCapacity(blockFrames * decoder.format.channels)
        while true {
            block.removeAll(keepingCapacity: true)
            let n = try decoder.read(into: &block, maxFrames: blockFrames)
            if n == 0 { break }
            meter.add(block, frames: n)
        }
        return meter
    }
}
