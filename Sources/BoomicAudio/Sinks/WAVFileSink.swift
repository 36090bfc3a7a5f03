import BoomicSystem
import Foundation

/// `wav:FILE`: writes exactly what would be heard, in the format it was opened with, as a WAV
/// file whose data chunk `flac -d` would also write (PCM, little-endian, 8-bit unsigned), or
/// IEEE float when the player renders float (any DSP on).
///
/// The file keeps its first format for good (a WAV file has one): a later song in another format
/// is converted by the engine. The header's sizes are filled in by `close()`, and brought up to
/// date whenever playback stops, pauses, seeks or reaches the end of the queue (`discard`,
/// `drain`), so that a file a server keeps open between songs reads whole (`soxi`, an editor)
/// while it waits; a file cut short by a crash still holds every sample written, behind the last
/// header written (players then read to the end of the file). Not `Sendable`: the engine's output
/// thread owns it.
public final class WAVFileSink: AudioSink {
    public let path: String
    public private(set) var format: PCMFormat?
    public let isPaced = false
    private var file: FileDescriptor?
    private var dataBytes = 0
    private var buffer: [UInt8] = []

    public var name: String { "wav:" + path }

    /// A sink that creates `path` when the first song's format is known.
    public init(path: String) {
        self.path = path
    }

    /// A sink opened at once in `format`.
    public convenience init(path: String, format: PCMFormat) throws(AudioError) {
        self.init(path: path)
        _ = try prepare(for: format)
    }

    public func prepare(for wanted: PCMFormat) throws(AudioError) -> PCMFormat {
        if let format { return format }
        do {
            file = try FileDescriptor(path: path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            try file?.write(Self.header(wanted, dataBytes: 0))
            isSeekable = file.map { lseek($0.rawValue, 0, SEEK_CUR) >= 0 } ?? false
        } catch {
            throw AudioError(path: path, reason: "cannot write: \(error.reason)")
        }
        format = wanted
        dataBytes = 0
        return wanted
    }

    /// Writes interleaved samples of `format`.
    public func write(_ samples: [Int32]) throws(AudioError) {
        try samples.withUnsafeBufferPointer { (b) throws(AudioError) in try write(b) }
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(AudioError) {
        buffer.removeAll(keepingCapacity: true)
        WAVEncoding.append(samples, bitsPerSample: format?.bitsPerSample ?? 16, to: &buffer)
        try flush()
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(samples.count * 4)
        for s in samples {
            let u = s.bitPattern
            for b in 0..<4 { buffer.append(UInt8(truncatingIfNeeded: u >> (8 * UInt32(b)))) }
        }
        try flush()
    }

    private func flush() throws(AudioError) {
        guard let file else { throw AudioError(path: path, reason: "written before it was opened") }
        do { try file.write(buffer) } catch { throw AudioError(path: path, reason: "cannot write: \(error.reason)") }
        dataBytes += buffer.count
    }

    public func discard() { updateHeader() }
    public func drain() { updateHeader() }

    /// The header's sizes as they are now, written in place (a pipe has no place: nothing is
    /// written there, and its reader saw the header at the start).
    private func updateHeader() {
        guard let file, let format, isSeekable else { return }
        try? file.write(Self.header(format, dataBytes: dataBytes), at: 0)
    }

    /// Whether the file can be written at an offset: not a pipe (`wav:` to a FIFO).
    private var isSeekable = false

    /// Fills in the sizes and closes the file; a later `prepare` starts the file afresh.
    public func close() throws(AudioError) {
        guard let file, let format else { return }
        self.file = nil
        // Prepared again, it writes a new file (a fan-out output switched off, then on).
        self.format = nil
        do {
            if dataBytes & 1 == 1 { try file.write([0]) } // chunks are padded to an even size
            try file.write(Self.header(format, dataBytes: dataBytes), at: 0)
            try file.close()
        } catch {
            throw AudioError(path: path, reason: "cannot write: \(error.reason)")
        }
    }

    /// The same as `close()`, under the name the decoder tests know.
    public func finish() throws(AudioError) { try close() }

    /// A canonical header: WAVE_FORMAT_PCM in mono or stereo up to 16 bits, IEEE_FLOAT in mono
    /// or stereo (with the `cbSize` and `fact` chunk the format asks of non-PCM data, which sox
    /// warns about otherwise), else WAVE_FORMAT_EXTENSIBLE (which readers require for more bits
    /// or channels).
    static func header(_ f: PCMFormat, dataBytes: Int) -> [UInt8] {
        var h: [UInt8] = []
        func u32(_ v: Int) { for i in 0..<4 { h.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        func u16(_ v: Int) { for i in 0..<2 { h.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        let extensible = f.channels > 2 || (!f.isFloat && f.bitsPerSample > 16)
        let block = f.channels * ((f.bitsPerSample + 7) / 8)
        let fmtSize = extensible ? 40 : f.isFloat ? 18 : 16
        let fact = f.isFloat ? 12 : 0
        h += Array("RIFF".utf8); u32(4 + (8 + fmtSize) + fact + 8 + dataBytes + (dataBytes & 1)); h += Array("WAVE".utf8)
        h += Array("fmt ".utf8); u32(fmtSize)
        u16(extensible ? 0xFFFE : f.isFloat ? 3 : 1); u16(f.channels); u32(f.sampleRate); u32(f.sampleRate * block); u16(block)
        u16(((f.bitsPerSample + 7) / 8) * 8)
        if extensible {
            u16(22); u16(f.bitsPerSample)
            // The usual speaker layouts for 1–8 channels (as flac writes them), else none.
            let masks = [0x4, 0x3, 0x7, 0x33, 0x37, 0x3F, 0x70F, 0x63F]
            u32(f.channels <= masks.count ? masks[f.channels - 1] : 0)
            // KSDATAFORMAT_SUBTYPE_PCM or _IEEE_FLOAT: the format tag, then a fixed GUID tail.
            h += [f.isFloat ? 0x03 : 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if f.isFloat {
            u16(0)
        }
        if f.isFloat { h += Array("fact".utf8); u32(4); u32(block > 0 ? dataBytes / block : 0) }
        h += Array("data".utf8); u32(dataBytes)
        return h
    }
}
