import CSoxr

/// Turns one song's samples into the sink's format, when the two differ (a `wav:` file keeps its
/// first song's format; a sound card may refuse a width).
///
/// - **Exact steps stay exact:** more bits (a left shift) and copied channels touch no value, so
///   16-bit into a 24-bit sink is lossless.
/// - **Everything else goes through Double:** the sample rate by libsoxr (streaming, its "high
///   quality" recipe, 20-bit precision, for sources of 16 bits or fewer, "very high quality",
///   28-bit, for 24/32-bit and float sources), averaged channels (see `ChannelMap`), integers
///   scaled to ±1.0 by 1/2^(bits-1) and back.
/// - **Back to integers with TPDF dither:** the sum of two uniform noises of ±½ LSB each is added
///   before rounding, then clipped to the width. The error is then noise, not distortion
///   correlated with the music, and at most 1 LSB from plain rounding. A value that is already
///   whole (silence, an exact average) is left undithered.
///
/// Real-time friendly: the buffers are sized for `blockFrames` at creation and grow only when a
/// larger block comes (never in a steady state); output is appended to arrays the caller reserves
/// (`outputCapacity(forFrames:)`). The end of a song is `flush`: soxr's delayed tail comes out,
/// padded or cut so that the song lasts exactly round(frames × ratio), and the converter is
/// ready for the next song. Not `Sendable`: it belongs to the engine's decode thread.
public final class FormatConverter {
    public let source: PCMFormat
    public let target: PCMFormat
    /// Whether every step is exact (no rate change, no averaging, no fewer bits, integers in and
    /// out): no dither then, and no rounding.
    public let isExact: Bool
    /// Nothing changes: the engine can hand samples on without calling the converter.
    public var isIdentity: Bool { source == target }
    /// The soxr recipe in use when the rate changes: `SOXR_HQ` (20-bit) or `SOXR_VHQ` (28-bit).
    public let resamplerQuality: ResamplerQuality?

    public enum ResamplerQuality: String, Sendable {
        case high = "HQ", veryHigh = "VHQ"
    }

    private let map: ChannelMap
    private var resampler: soxr_t?
    private let ratio: Double
    private var loaded = Buffer<Double>()
    private var mapped = Buffer<Double>()
    private var resampled = Buffer<Double>()
    private var exact = Buffer<Int32>()
    private var dither: TPDFDither
    /// Frames taken and given since the song began, for an exact length at the end.
    private var framesIn = 0
    private var framesOut = 0

    /// A converter from `source` to `target`; `seed` fixes the dither's noise (tests).
    public init(from source: PCMFormat, to target: PCMFormat, blockFrames: Int = 4096, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) throws(AudioError) {
        self.source = source
        self.target = target
        map = ChannelMap(from: source.channels, to: target.channels)
        ratio = Double(target.sampleRate) / Double(source.sampleRate)
        dither = TPDFDither(seed: seed)
        isExact = source.sampleRate == target.sampleRate && map.isExact && !source.isFloat && !target.isFloat
            && target.bitsPerSample >= source.bitsPerSample
        if source.sampleRate != target.sampleRate {
            let quality: ResamplerQuality = !source.isFloat && source.bitsPerSample <= 16 ? .high : .veryHigh
            resamplerQuality = quality
            var io = soxr_io_spec(SOXR_FLOAT64_I, SOXR_FLOAT64_I)
            var q = soxr_quality_spec(UInt(quality == .high ? SOXR_20_BITQ : SOXR_28_BITQ), 0)
            var error: soxr_error_t?
            resampler = soxr_create(Double(source.sampleRate), Double(target.sampleRate), UInt32(target.channels), &error, &io, &q, nil)
            guard resampler != nil, error == nil else {
                throw AudioError(path: "\(source) → \(target)", reason: "cannot resample: \(error.map { String(cString: $0) } ?? "soxr_create failed")")
            }
        } else {
            resamplerQuality = nil
        }
        reserve(blockFrames)
    }

    deinit {
        if let resampler { soxr_delete(resampler) }
        loaded.free(); mapped.free(); resampled.free(); exact.free()
    }

    /// The most frames one call converting `frames` frames can append (the flush included).
    public func outputCapacity(forFrames frames: Int) -> Int {
        resampler == nil ? frames : Int((Double(frames) * ratio).rounded(.up)) + 64 + Int(ratio.rounded(.up)) * 1024
    }

    // MARK: Converting

    public func convert(_ input: UnsafeBufferPointer<Int32>, into out: inout [Int32]) {
        precondition(!source.isFloat && !target.isFloat, "integer samples in and out for \(source) → \(target)")
        if isExact {
            let frames = input.count / source.channels
            reserve(frames)
            let shift = Int32(target.bitsPerSample - source.bitsPerSample)
            map.copy(input.baseAddress!, frames: frames, from: source.channels, to: target.channels, into: exact.base)
            out.reserveCapacity(out.count + frames * target.channels)
            for i in 0..<(frames * target.channels) { out.append(exact.base[i] << shift) }
            return
        }
        let (p, n) = process(load(input))
        quantize(p, count: n, into: &out)
    }

    public func convert(_ input: UnsafeBufferPointer<Int32>, into out: inout [Float]) {
        precondition(!source.isFloat && target.isFloat, "integer samples in, float out for \(source) → \(target)")
        let (p, n) = process(load(input))
        append(p, count: n, into: &out)
    }

    public func convert(_ input: UnsafeBufferPointer<Float>, into out: inout [Int32]) {
        precondition(source.isFloat && !target.isFloat, "float samples in, integers out for \(source) → \(target)")
        let (p, n) = process(load(input))
        quantize(p, count: n, into: &out)
    }

    public func convert(_ input: UnsafeBufferPointer<Float>, into out: inout [Float]) {
        precondition(source.isFloat && target.isFloat, "float samples in and out for \(source) → \(target)")
        let (p, n) = process(load(input))
        append(p, count: n, into: &out)
    }

    /// The end of a song: the resampler's last samples (its filter delays them), so that no
    /// sample is lost and the song lasts exactly round(frames in × ratio); then the converter is
    /// ready for the next song.
    public func flush(into out: inout [Int32]) {
        precondition(!target.isFloat)
        let (p, n) = drainResampler()
        quantize(p, count: n, into: &out)
    }

    public func flush(into out: inout [Float]) {
        precondition(target.isFloat)
        let (p, n) = drainResampler()
        append(p, count: n, into: &out)
    }

    /// Forgets the song so far without a tail (a seek, a skip): the next block starts afresh.
    public func reset() {
        if let resampler { soxr_clear(resampler) }
        framesIn = 0
        framesOut = 0
    }

    // MARK: Stages

    /// Integers scaled to ±1.0, in `loaded`; the frame count.
    private func load(_ input: UnsafeBufferPointer<Int32>) -> Int {
        let frames = input.count / source.channels
        reserve(frames)
        let scale = 1 / Double(Int64(1) << (source.bitsPerSample - 1))
        for i in 0..<(frames * source.channels) { loaded.base[i] = Double(input[i]) * scale }
        return frames
    }

    private func load(_ input: UnsafeBufferPointer<Float>) -> Int {
        let frames = input.count / source.channels
        reserve(frames)
        for i in 0..<(frames * source.channels) { loaded.base[i] = Double(input[i]) }
        return frames
    }

    /// Channels mapped and the rate changed: where the result is and how many samples.
    private func process(_ frames: Int) -> (UnsafeMutablePointer<Double>, Int) {
        var samples = loaded.base
        if map != .same {
            map.mix(loaded.base, frames: frames, from: source.channels, to: target.channels, into: mapped.base)
            samples = mapped.base
        }
        guard let resampler else { return (samples, frames * target.channels) }
        framesIn += frames
        let channels = target.channels
        var consumed = 0, produced = 0
        while true {
            // Sized by outputCapacity, the room runs out only if soxr releases more at once than
            // its delay: then it grows (once), rather than leaving input behind.
            if produced == resampled.count / channels { resampled.grow(keeping: produced * channels) }
            let room = resampled.count / channels
            var used = 0, made = 0
            soxr_process(resampler, samples + consumed * channels, frames - consumed, &used,
                         resampled.base + produced * channels, room - produced, &made)
            consumed += used
            produced += made
            if consumed >= frames && made == 0 { break }
        }
        framesOut += produced
        return (resampled.base, produced * channels)
    }

    private func drainResampler() -> (UnsafeMutablePointer<Double>, Int) {
        guard let resampler else { return (resampled.base, 0) }
        let channels = target.channels
        let expected = Int((Double(framesIn) * ratio).rounded())
        var produced = 0
        while true {
            if produced == resampled.count / channels { resampled.grow(keeping: produced * channels) }
            var made = 0
            soxr_process(resampler, nil, 0, nil, resampled.base + produced * channels, resampled.count / channels - produced, &made)
            if made == 0 { break }
            produced += made
        }
        // Cut what runs past the exact length, pad (silence) what falls short of it.
        var n = max(0, min(produced, expected - framesOut))
        while expected - framesOut > resampled.count / channels { resampled.grow(keeping: n * channels) }
        while framesOut + n < expected {
            for c in 0..<channels { resampled.base[n * channels + c] = 0 }
            n += 1
        }
        soxr_clear(resampler)
        framesIn = 0
        framesOut = 0
        return (resampled.base, n * channels)
    }

    private func quantize(_ p: UnsafeMutablePointer<Double>, count: Int, into out: inout [Int32]) {
        let bits = target.bitsPerSample
        let scale = Double(Int64(1) << (bits - 1))
        let low = -scale, high = scale - 1
        out.reserveCapacity(out.count + count)
        for i in 0..<count {
            // A value that is already whole has no rounding error to decorrelate: it is not
            // dithered, so digital silence stays silent and a stereo pair with equal sides
            // averages to mono exactly.
            let x = p[i] * scale
            let y = x == x.rounded() ? x : (x + dither.next()).rounded()
            out.append(Int32(min(max(y, low), high)))
        }
    }

    private func append(_ p: UnsafeMutablePointer<Double>, count: Int, into out: inout [Float]) {
        out.reserveCapacity(out.count + count)
        for i in 0..<count { out.append(Float(p[i])) }
    }

    /// Room for `frames` input frames at every stage; grows only for a larger block.
    private func reserve(_ frames: Int) {
        let channels = max(source.channels, target.channels)
        loaded.ensure(frames * source.channels)
        if map != .same { mapped.ensure(frames * target.channels) }
        if isExact { exact.ensure(frames * channels) }
        if resampler != nil { resampled.ensure(outputCapacity(forFrames: frames) * target.channels) }
    }
}

/// A buffer the converter owns, allocated once and grown only when a block is larger.
private struct Buffer<T> {
    var base = UnsafeMutablePointer<T>.allocate(capacity: 1)
    var count = 1

    mutating func ensure(_ n: Int) {
        guard n > count else { return }
        base.deallocate()
        base = .allocate(capacity: n)
        count = n
    }

    /// Twice the room, keeping the first `kept` values.
    mutating func grow(keeping kept: Int) {
        let bigger = UnsafeMutablePointer<T>.allocate(capacity: 2 * count)
        bigger.moveInitialize(from: base, count: kept)
        base.deallocate()
        base = bigger
        count *= 2
    }

    func free() { base.deallocate() }
}
