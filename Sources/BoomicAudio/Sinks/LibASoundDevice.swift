import CALSA
import Glibc

/// `ALSADevice` through alsa-lib: one PCM handle, used by one thread (the engine's output
/// thread owns the sink that owns it).
public final class LibASoundDevice: ALSADevice {
    private var pcm: OpaquePointer?

    public init() {}

    deinit { close() }

    public func open(_ name: String) -> Int32 {
        close()
        calsa_silence_errors()
        return snd_pcm_open(&pcm, name, SND_PCM_STREAM_PLAYBACK, 0)
    }

    public var isPaced: Bool {
        guard let pcm else { return true }
        let type = snd_pcm_type(pcm)
        return type != SND_PCM_TYPE_NULL && type != SND_PCM_TYPE_FILE
    }

    public func configure(formats: [ALSASampleFormat], channels: Int, rate: Int,
                          bufferMicroseconds: Int, periodMicroseconds: Int) throws(ALSAFailure) -> ALSAHardware {
        guard let pcm else { throw ALSAFailure(step: "configure", code: -EBADFD) }
        var hw: OpaquePointer?
        try check("snd_pcm_hw_params_malloc", snd_pcm_hw_params_malloc(&hw))
        defer { snd_pcm_hw_params_free(hw) }
        try check("snd_pcm_hw_params_any", snd_pcm_hw_params_any(pcm, hw))
        try check("set access", snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED))
        // The device's own rate, not one alsa-lib's resampler fakes: libsoxr converts better.
        _ = snd_pcm_hw_params_set_rate_resample(pcm, hw, 0)
        guard let format = formats.first(where: { snd_pcm_hw_params_test_format(pcm, hw, Self.code($0)) == 0 }) else {
            throw ALSAFailure(step: "no sample format it takes among \(formats.map(\.rawValue).joined(separator: ", "))", code: -EINVAL)
        }
        try check("set format \(format.rawValue)", snd_pcm_hw_params_set_format(pcm, hw, Self.code(format)))
        var ch = UInt32(channels)
        try check("set channels", snd_pcm_hw_params_set_channels_near(pcm, hw, &ch))
        var r = UInt32(rate), dir: Int32 = 0
        try check("set rate", snd_pcm_hw_params_set_rate_near(pcm, hw, &r, &dir))
        var buffer = UInt32(bufferMicroseconds), period = UInt32(periodMicroseconds)
        try check("set buffer time", snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &buffer, &dir))
        try check("set period time", snd_pcm_hw_params_set_period_time_near(pcm, hw, &period, &dir))
        try check("snd_pcm_hw_params", snd_pcm_hw_params(pcm, hw))
        var periodFrames: snd_pcm_uframes_t = 0, bufferFrames: snd_pcm_uframes_t = 0
        _ = snd_pcm_hw_params_get_period_size(hw, &periodFrames, &dir)
        _ = snd_pcm_hw_params_get_buffer_size(hw, &bufferFrames)

        // Start when the buffer is full (a drain starts a shorter song), wake a period at a time.
        var sw: OpaquePointer?
        try check("snd_pcm_sw_params_malloc", snd_pcm_sw_params_malloc(&sw))
        defer { snd_pcm_sw_params_free(sw) }
        try check("snd_pcm_sw_params_current", snd_pcm_sw_params_current(pcm, sw))
        _ = snd_pcm_sw_params_set_start_threshold(pcm, sw, bufferFrames)
        _ = snd_pcm_sw_params_set_avail_min(pcm, sw, periodFrames)
        try check("snd_pcm_sw_params", snd_pcm_sw_params(pcm, sw))
        return ALSAHardware(format: format, channels: Int(ch), rate: Int(r),
                            periodFrames: Int(periodFrames), bufferFrames: Int(bufferFrames))
    }

    public func write(_ bytes: UnsafeRawPointer, frames: Int) -> Int {
        guard let pcm else { return Int(-EBADFD) }
        return snd_pcm_writei(pcm, bytes, snd_pcm_uframes_t(frames))
    }

    public func recover(_ error: Int32) -> Int32 {
        guard let pcm else { return -EBADFD }
        return snd_pcm_recover(pcm, error, 1)
    }

    public func wait(milliseconds: Int32) {
        if let pcm { _ = snd_pcm_wait(pcm, milliseconds) }
    }

    public func drop() -> Int32 { pcm.map { snd_pcm_drop($0) } ?? 0 }
    public func prepare() -> Int32 { pcm.map { snd_pcm_prepare($0) } ?? 0 }
    public func drain() -> Int32 { pcm.map { snd_pcm_drain($0) } ?? 0 }

    public func close() {
        if let pcm { _ = snd_pcm_close(pcm) }
        pcm = nil
    }

    public func describe(_ error: Int32) -> String { String(cString: snd_strerror(error)) }

    private func check(_ step: String, _ result: Int32) throws(ALSAFailure) {
        if result < 0 { throw ALSAFailure(step: step, code: result) }
    }

    private static func code(_ format: ALSASampleFormat) -> snd_pcm_format_t {
        switch format {
        case .u8: SND_PCM_FORMAT_U8
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24: SND_PCM_FORMAT_S24_LE
        case .s24Packed: SND_PCM_FORMAT_S24_3LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .float: SND_PCM_FORMAT_FLOAT_LE
        }
    }
}
