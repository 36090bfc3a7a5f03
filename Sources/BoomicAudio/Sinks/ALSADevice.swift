/// The few ALSA calls `ALSASink` makes, behind a protocol: `LibASoundDevice` makes them through
/// alsa-lib; a test double injects underruns, suspends, short writes, EAGAIN and refused formats
/// and rates (CI has no sound card). Return values keep ALSA's own convention: a count, or a
/// negative errno.
public protocol ALSADevice: AnyObject {
    /// Opens the PCM called `name` for playback (blocking writes): 0 or a negative errno.
    func open(_ name: String) -> Int32
    /// Whether writes block at the pace of the audio: false for ALSA's `null` and `file` plugin
    /// types, which take everything at once; true for hardware, `plug`, PulseAudio, PipeWire.
    var isPaced: Bool { get }
    /// Sets up the open PCM: interleaved access, the first of `formats` it takes, the channel
    /// count and rate it takes nearest to those asked (no resampling inside ALSA, so the rate
    /// reported is the device's), and a buffer and period near the times asked.
    func configure(formats: [ALSASampleFormat], channels: Int, rate: Int,
                   bufferMicroseconds: Int, periodMicroseconds: Int) throws(ALSAFailure) -> ALSAHardware
    /// Writes up to `frames` frames from `bytes` (`snd_pcm_writei`): the frames written, or a
    /// negative errno (-EPIPE underrun, -ESTRPIPE suspended, -EAGAIN, -EINTR…).
    func write(_ bytes: UnsafeRawPointer, frames: Int) -> Int
    /// `snd_pcm_recover`, silently: 0 when the PCM can be written again.
    func recover(_ error: Int32) -> Int32
    /// Waits until the PCM can take frames, at most `milliseconds` (`snd_pcm_wait`).
    func wait(milliseconds: Int32)
    /// Stops at once, dropping what is buffered (`snd_pcm_drop`).
    func drop() -> Int32
    /// Ready to be written again after `drop` or `drain` (`snd_pcm_prepare`).
    func prepare() -> Int32
    /// Plays out what is buffered and stops (`snd_pcm_drain`).
    func drain() -> Int32
    func close()
    /// ALSA's words for a negative errno (`snd_strerror`).
    func describe(_ error: Int32) -> String
}

/// An ALSA sample format the sink can write, all little-endian (the machines Boomic runs on).
public enum ALSASampleFormat: String, Sendable, CaseIterable {
    case u8 = "U8"
    case s16 = "S16_LE"
    /// 24 bits in the low three bytes of 32 (what most 24-bit cards take).
    case s24 = "S24_LE"
    /// 24 bits packed in three bytes (USB audio).
    case s24Packed = "S24_3LE"
    case s32 = "S32_LE"
    case float = "FLOAT_LE"

    /// Bytes per sample.
    public var width: Int {
        switch self {
        case .u8: 1
        case .s16: 2
        case .s24Packed: 3
        case .s24, .s32, .float: 4
        }
    }

    /// The samples the engine writes for this format at `rate` and `channels`.
    func pcmFormat(rate: Int, channels: Int) -> PCMFormat {
        switch self {
        case .u8: PCMFormat(sampleRate: rate, channels: channels, bitsPerSample: 8)
        case .s16: PCMFormat(sampleRate: rate, channels: channels, bitsPerSample: 16)
        case .s24, .s24Packed: PCMFormat(sampleRate: rate, channels: channels, bitsPerSample: 24)
        case .s32: PCMFormat(sampleRate: rate, channels: channels, bitsPerSample: 32)
        case .float: .float(sampleRate: rate, channels: channels)
        }
    }

    /// What to ask a device for, best first, to play `wanted`: its own width first (bit-exact),
    /// then wider integers (exact by a shift), then float, then narrower (dithered).
    static func preference(for wanted: PCMFormat) -> [ALSASampleFormat] {
        if wanted.isFloat { return [.float, .s32, .s24, .s24Packed, .s16] }
        switch wanted.bitsPerSample {
        case ...8: return [.u8, .s16, .s24, .s24Packed, .s32, .float]
        case ...16: return [.s16, .s24, .s24Packed, .s32, .float]
        case ...24: return [.s24, .s24Packed, .s32, .float, .s16]
        default: return [.s32, .float, .s24, .s24Packed, .s16]
        }
    }
}

/// What a device was set up with.
public struct ALSAHardware: Equatable, Sendable {
    public var format: ALSASampleFormat
    public var channels: Int
    public var rate: Int
    public var periodFrames: Int
    public var bufferFrames: Int

    public init(format: ALSASampleFormat, channels: Int, rate: Int, periodFrames: Int, bufferFrames: Int) {
        self.format = format
        self.channels = channels
        self.rate = rate
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
    }
}

/// An ALSA call that failed: which step and its negative errno.
public struct ALSAFailure: Error, Equatable, Sendable {
    public var step: String
    public var code: Int32

    public init(step: String, code: Int32) {
        self.step = step
        self.code = code
    }
}
