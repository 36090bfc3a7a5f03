import Glibc

/// `alsa` (ALSA's `default`, which also reaches PipeWire and PulseAudio) and `alsa:DEVICE` (any
/// PCM name): a sound card, negotiated so that hardware playback stays bit-exact.
///
/// - **Format:** the song's own sample width first, then wider integers (exact), float, then
///   narrower; the song's channel count and rate if the device takes them, else the nearest, with
///   ALSA's own resampling off. `prepare` returns what was taken; the engine converts to it.
/// - **A new format reopens the device** (as MPD does): the buffered end of the last song is
///   played out first, then the PCM is closed and opened at the new rate, so a 96 kHz album
///   after a 44.1 kHz one reaches the card unresampled.
/// - **Latency:** a buffer of about 80 ms in periods of 20 ms, so pause, seek and skip
///   (`discard`: drop and prepare) are heard within 100 ms.
/// - **Underruns and suspends** (-EPIPE, -ESTRPIPE) are recovered with `snd_pcm_recover` and
///   counted; the frames that were not written are written again, none lost or doubled.
///
/// Not `Sendable`: the engine's output thread owns it.
public final class ALSASink: AudioSink {
    /// The ALSA PCM name (`default`, `hw:0,0`).
    public let device: String
    public private(set) var format: PCMFormat?
    /// What the device was set up with, once prepared (the last setup, after `close`).
    public private(set) var hardware: ALSAHardware?
    /// -EPIPE (the device ran dry: the writer was late) recovered since the sink was made.
    public private(set) var underruns = 0
    /// -ESTRPIPE (the system suspended the device) recovered.
    public private(set) var suspends = 0
    /// How many times the device was opened: once, plus once per change of format.
    public private(set) var opens = 0

    static let bufferMicroseconds = 80_000
    static let periodMicroseconds = 20_000
    /// Writes in a row that make no progress before the device is given up on (with a wait of
    /// up to 100 ms each on EAGAIN: seconds, not forever).
    public static let stallLimit = 50

    private let backend: any ALSADevice
    private var wanted: PCMFormat?
    private var isOpen = false
    private var bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)

    public var name: String { device == "default" ? "alsa" : "alsa:" + device }
    /// What the device last opened said (true until then: a sound card is the usual case).
    public private(set) var isPaced = true

    /// A sink for the PCM `device`; `backend` is alsa-lib unless a test gives a double. Nothing
    /// is opened until `prepare`, which is where a device that does not exist is found.
    public init(device: String = "default", backend: any ALSADevice = LibASoundDevice()) {
        self.device = device
        self.backend = backend
    }

    deinit {
        if isOpen { backend.close() }
        bytes.deallocate()
    }

    public func prepare(for wanted: PCMFormat) throws(AudioError) -> PCMFormat {
        if isOpen, wanted == self.wanted, let format { return format }
        if isOpen {
            _ = backend.drain()
            backend.close()
            isOpen = false
        }
        format = nil
        hardware = nil
        let opened = backend.open(device)
        guard opened >= 0 else {
            throw AudioError(path: name, reason: "cannot open ALSA device '\(device)': \(backend.describe(opened)) (aplay -L lists the devices)")
        }
        isOpen = true
        opens += 1
        isPaced = backend.isPaced
        let setup: ALSAHardware
        do {
            setup = try backend.configure(formats: ALSASampleFormat.preference(for: wanted), channels: wanted.channels,
                                          rate: wanted.sampleRate, bufferMicroseconds: Self.bufferMicroseconds,
                                          periodMicroseconds: Self.periodMicroseconds)
        } catch {
            backend.close()
            isOpen = false
            throw AudioError(path: name, reason: "cannot play \(wanted) on ALSA device '\(device)': \(error.step): \(backend.describe(error.code))")
        }
        self.wanted = wanted
        hardware = setup
        let taken = setup.format.pcmFormat(rate: setup.rate, channels: setup.channels)
        format = taken
        return taken
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(AudioError) {
        guard let hardware else { throw AudioError(path: name, reason: "written before it was prepared") }
        guard hardware.format != .float else { throw AudioError(path: name, reason: "integer samples written to a float device") }
        let width = hardware.format.width
        reserve(samples.count * width)
        let out = bytes.baseAddress!
        switch hardware.format {
        case .u8:
            for (i, s) in samples.enumerated() { out.storeBytes(of: UInt8(truncatingIfNeeded: s &+ 128), toByteOffset: i, as: UInt8.self) }
        case .s16:
            for (i, s) in samples.enumerated() { out.storeBytes(of: Int16(truncatingIfNeeded: s).littleEndian, toByteOffset: 2 * i, as: Int16.self) }
        case .s24, .s32:
            for (i, s) in samples.enumerated() { out.storeBytes(of: s.littleEndian, toByteOffset: 4 * i, as: Int32.self) }
        case .s24Packed:
            for (i, s) in samples.enumerated() {
                let u = UInt32(bitPattern: s)
                for b in 0..<3 { out.storeBytes(of: UInt8(truncatingIfNeeded: u >> (8 * UInt32(b))), toByteOffset: 3 * i + b, as: UInt8.self) }
            }
        case .float:
            break
        }
        try play(frames: samples.count / hardware.channels, frameBytes: width * hardware.channels)
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        guard let hardware else { throw AudioError(path: name, reason: "written before it was prepared") }
        guard hardware.format == .float else { throw AudioError(path: name, reason: "float samples written to an integer device") }
        reserve(samples.count * 4)
        let out = bytes.baseAddress!
        for (i, s) in samples.enumerated() { out.storeBytes(of: s.bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self) }
        try play(frames: samples.count / hardware.channels, frameBytes: 4 * hardware.channels)
    }

    /// Writes `frames` frames from `bytes`, however many calls the device needs.
    private func play(frames: Int, frameBytes: Int) throws(AudioError) {
        var done = 0, stalls = 0
        while done < frames {
            let n = backend.write(bytes.baseAddress! + done * frameBytes, frames: frames - done)
            if n > 0 {
                done += n
                stalls = 0
                continue
            }
            stalls += 1
            guard stalls <= Self.stallLimit else {
                throw AudioError(path: name, reason: "ALSA device '\(device)' takes no more samples (\(backend.describe(Int32(n))))")
            }
            switch Int32(n) {
            case 0, -EAGAIN:
                backend.wait(milliseconds: 100)
            case -EINTR:
                continue
            default:
                if n == -Int(EPIPE) { underruns += 1 } else if n == -Int(ESTRPIPE) { suspends += 1 }
                let recovered = backend.recover(Int32(n))
                guard recovered >= 0 else {
                    throw AudioError(path: name, reason: "ALSA device '\(device)' failed: \(backend.describe(Int32(n)))")
                }
            }
        }
    }

    public func discard() {
        guard isOpen else { return }
        _ = backend.drop()
        _ = backend.prepare()
    }

    public func drain() throws(AudioError) {
        guard isOpen else { return }
        let r = backend.drain()
        _ = backend.prepare()
        if r < 0 && r != -EPIPE { throw AudioError(path: name, reason: "cannot play out ALSA device '\(device)': \(backend.describe(r))") }
    }

    /// Closes the device at once (call `drain` first to hear the end). `format` and `hardware`
    /// still say what it was; the next `prepare` opens it again.
    public func close() {
        guard isOpen else { return }
        backend.close()
        isOpen = false
        wanted = nil
    }

    private func reserve(_ count: Int) {
        guard bytes.count < count else { return }
        bytes.deallocate()
        bytes = .allocate(byteCount: count, alignment: 16)
    }
}
