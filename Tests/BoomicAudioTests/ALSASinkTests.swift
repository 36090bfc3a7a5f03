import BoomicAudio
import Glibc
import Testing

/// The ALSA sink against a device double: recovery from underruns, suspends, short writes,
/// EAGAIN and EINTR with no frame lost or doubled; negotiation when formats and rates are
/// refused; a reopen per new format; one-line errors. (`ALSALibraryTests` goes through alsa-lib.)
@Suite struct ALSASinkTests {
    static let cd = PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16)
    static let samples: [Int32] = (0..<4000).map { Int32(truncatingIfNeeded: $0 &* 40_503) >> 16 }

    @Test func failedWritesAreRecoveredWithoutLosingOrRepeatingAFrame() throws {
        let device = FakeALSADevice()
        device.script = [.underrun, .short(3), .again, .suspend, .short(1), .interrupted, .underrun, .short(0)]
        let sink = ALSASink(device: "hw:9", backend: device)
        #expect(try sink.prepare(for: Self.cd) == Self.cd)
        #expect(device.configured?.format == .s16)
        try Self.write(Self.samples, to: sink, block: 512)
        #expect(device.played == Self.le(Self.samples, width: 2))
        #expect(sink.underruns == 2 && sink.suspends == 1)
        #expect(device.log.filter { $0.hasPrefix("recover") } == ["recover \(-EPIPE)", "recover \(-ESTRPIPE)", "recover \(-EPIPE)"])
        #expect(device.script.isEmpty)
    }

    /// A device that takes only 32-bit samples at 48 kHz: the sink says so, and writes what the
    /// engine converted as 32-bit little-endian.
    @Test func refusedFormatsAndRatesAreNegotiated() throws {
        let device = FakeALSADevice(formats: [.s32], rates: [48000])
        let sink = ALSASink(backend: device)
        #expect(try sink.prepare(for: Self.cd) == PCMFormat(sampleRate: 48000, channels: 2, bitsPerSample: 32))
        #expect(device.asked == [.s16, .s24, .s24Packed, .s32, .float])
        try Self.write(Self.samples, to: sink, block: 1000)
        #expect(device.played == Self.le(Self.samples, width: 4))

        let packed = FakeALSADevice(formats: [.s24Packed, .s16])
        let sink24 = ALSASink(backend: packed)
        let hires = PCMFormat(sampleRate: 96000, channels: 2, bitsPerSample: 24)
        #expect(try sink24.prepare(for: hires) == hires)
        let values: [Int32] = [-8_388_608, 8_388_607, -1, 1, 0x123456, -0x123456]
        try Self.write(values, to: sink24, block: 6)
        #expect(packed.played == Self.le(values, width: 3))

        let float = FakeALSADevice(formats: [.float])
        let sinkF = ALSASink(backend: float)
        #expect(try sinkF.prepare(for: .float(sampleRate: 44100, channels: 2)).isFloat)
        try [Float(0.25), -1].withUnsafeBufferPointer { try sinkF.write($0) }
        #expect(float.played == Self.le([Int32(bitPattern: Float(0.25).bitPattern), Int32(bitPattern: Float(-1).bitPattern)], width: 4))
    }

    /// The same format keeps the device open; a new one plays out the old song and reopens.
    @Test func aNewFormatReopensTheDevice() throws {
        let device = FakeALSADevice()
        let sink = ALSASink(backend: device)
        _ = try sink.prepare(for: Self.cd)
        _ = try sink.prepare(for: Self.cd)
        #expect(sink.opens == 1)
        let hires = PCMFormat(sampleRate: 96000, channels: 2, bitsPerSample: 24)
        #expect(try sink.prepare(for: hires) == hires)
        #expect(sink.opens == 2)
        #expect(device.log == ["open default", "configure", "drain", "close", "open default", "configure"])
        sink.discard()
        try sink.drain()
        #expect(device.log.suffix(4) == ["drop", "prepare", "drain", "prepare"])
    }

    @Test func isPacedFollowsTheDeviceType() throws {
        let device = FakeALSADevice()
        device.paced = false
        let sink = ALSASink(backend: device)
        _ = try sink.prepare(for: Self.cd)
        #expect(!sink.isPaced)
    }

    @Test func failuresAreOneLineAudioErrors() throws {
        let missing = FakeALSADevice()
        missing.openResult = -ENOENT
        let s1 = ALSASink(device: "nope", backend: missing)
        #expect(throws: AudioError.self) { _ = try s1.prepare(for: Self.cd) }

        let refusing = FakeALSADevice(formats: [])
        let s2 = ALSASink(backend: refusing)
        #expect(throws: AudioError.self) { _ = try s2.prepare(for: Self.cd) }
        #expect(refusing.log.last == "close")

        let broken = FakeALSADevice()
        broken.script = [.underrun]
        broken.recoverResult = -EIO
        let s3 = ALSASink(backend: broken)
        _ = try s3.prepare(for: Self.cd)
        #expect(throws: AudioError.self) { try Self.write(Self.samples, to: s3, block: 100) }

        let stuck = FakeALSADevice()
        stuck.script = Array(repeating: .again, count: ALSASink.stallLimit + 1)
        let s4 = ALSASink(backend: stuck)
        _ = try s4.prepare(for: Self.cd)
        #expect(throws: AudioError.self) { try Self.write(Self.samples, to: s4, block: 100) }

        for error in [missing, refusing, broken].map({ d -> String in
            let sink = ALSASink(device: "x", backend: d)
            do { _ = try sink.prepare(for: Self.cd); try Self.write([1, 2], to: sink, block: 2) } catch { return "\(error)" }
            return ""
        }) where !error.isEmpty {
            #expect(!error.contains("\n") && error.hasPrefix("alsa:x: "), "\(error)")
        }
    }

    @Test func specsOpenTheirSinks() throws {
        #expect(try Sinks.open("null") is NullSink)
        #expect((try Sinks.open("wav:/tmp/x.wav") as? WAVFileSink)?.path == "/tmp/x.wav")
        #expect((try Sinks.open("alsa") as? ALSASink)?.device == "default")
        #expect((try Sinks.open("alsa:hw:1,0") as? ALSASink)?.name == "alsa:hw:1,0")
        #expect(throws: SinkSpecError.self) { _ = try Sinks.open("speakers") }
    }

    static func write(_ samples: [Int32], to sink: ALSASink, block: Int) throws {
        try samples.withUnsafeBufferPointer { all in
            var at = 0
            while at < all.count {
                let n = min(block, all.count - at)
                try sink.write(UnsafeBufferPointer(rebasing: all[at..<(at + n)]))
                at += n
            }
        }
    }

    /// Samples as little-endian bytes of `width`.
    static func le(_ samples: [Int32], width: Int) -> [UInt8] {
        samples.flatMap { s in (0..<width).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: s) >> (8 * UInt32($0))) } }
    }
}

/// A device that plays into an array and does, call by call, what its script says.
final class FakeALSADevice: ALSADevice {
    enum Step { case underrun, suspend, again, interrupted, short(Int) }

    var script: [Step] = []
    var openResult: Int32 = 0
    var recoverResult: Int32 = 0
    var paced = true
    let formats: [ALSASampleFormat]
    let rates: [Int]
    private(set) var played: [UInt8] = []
    private(set) var log: [String] = []
    private(set) var asked: [ALSASampleFormat] = []
    private(set) var configured: ALSAHardware?

    init(formats: [ALSASampleFormat] = ALSASampleFormat.allCases, rates: [Int] = [8000, 44100, 48000, 96000, 192_000]) {
        self.formats = formats
        self.rates = rates
    }

    var isPaced: Bool { paced }

    func open(_ name: String) -> Int32 {
        log.append("open " + name)
        return openResult
    }

    func configure(formats asked: [ALSASampleFormat], channels: Int, rate: Int,
                   bufferMicroseconds: Int, periodMicroseconds: Int) throws(ALSAFailure) -> ALSAHardware {
        log.append("configure")
        self.asked = asked
        guard let format = asked.first(where: formats.contains) else { throw ALSAFailure(step: "set format", code: -EINVAL) }
        let taken = rates.min { abs($0 - rate) < abs($1 - rate) }!
        let hw = ALSAHardware(format: format, channels: channels, rate: taken,
                              periodFrames: taken * periodMicroseconds / 1_000_000, bufferFrames: taken * bufferMicroseconds / 1_000_000)
        configured = hw
        return hw
    }

    func write(_ bytes: UnsafeRawPointer, frames: Int) -> Int {
        let frameBytes = configured!.format.width * configured!.channels
        var n = frames
        if !script.isEmpty {
            switch script.removeFirst() {
            case .underrun: return -Int(EPIPE)
            case .suspend: return -Int(ESTRPIPE)
            case .again: return -Int(EAGAIN)
            case .interrupted: return -Int(EINTR)
            case .short(let k): n = min(k, frames)
            }
        }
        played += UnsafeRawBufferPointer(start: bytes, count: n * frameBytes)
        return n
    }

    func recover(_ error: Int32) -> Int32 {
        log.append("recover \(error)")
        return recoverResult
    }

    func wait(milliseconds: Int32) {}
    func drop() -> Int32 { log.append("drop"); return 0 }
    func prepare() -> Int32 { log.append("prepare"); return 0 }
    func drain() -> Int32 { log.append("drain"); return 0 }
    func close() { log.append("close") }
    func describe(_ error: Int32) -> String { String(cString: strerror(-error)) }
}
