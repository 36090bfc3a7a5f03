import BoomicSystem
import Foundation

/// `wav:FILE`: writes exactly what would be heard, in the format it was opened with, as a WAV
/// file whose data chunk `flac -d` would also write (PCM, little-endian, 8-bit unsigned).
///
/// The header's sizes are known only at the end, so `finish()` fills them in; a file cut short
/// by a crash still holds every sample written, behind a header saying 0 bytes (players then read
/// to the end of the file). Not `Sendable`: the engine's output thread owns it.
public final class WAVFileSink {
    public let path: String
    public let format: PCMFormat
    private let file: FileDescriptor
    private var dataBytes = 0
    private var buffer: [UInt8] = []

    public init(path: String, format: PCMFormat) throws(AudioError) {
        self.path = path
        self.format = format
        do {
            file = try FileDescriptor(path: path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            try file.write(Self.header(format, dataBytes: 0))
        } catch {
            throw AudioError(path: path, reason: "cannot write: \(error.reason)")
        }
    }

    /// Writes interleaved samples of `format`.
    public func write(_ samples: some Collection<Int32>) throws(AudioError) {
        buffer.removeAll(keepingCapacity: true)
        WAVEncoding.append(samples, bitsPerSample: format.bitsPerSample, to: &buffer)
        do { try file.write(buffer) } catch { throw AudioError(path: path, reason: "cannot write: \(error.reason)") }
        dataBytes += buffer.count
    }

    /// Fills in the sizes and closes the file.
    public func finish() throws(AudioError) {
        do {
            if dataBytes & 1 == 1 { try file.write([0]) } // chunks are padded to an even size
            try file.write(Self.header(format, dataBytes: dataBytes), at: 0)
            try file.close()
        } catch {
            throw AudioError(path: path, reason: "cannot write: \(error.reason)")
        }
    }

    /// A canonical header: WAVE_FORMAT_PCM for 8 and 16 bits in mono or stereo, else
    /// WAVE_FORMAT_EXTENSIBLE (which readers require for more bits or channels).
    static func header(_ f: PCMFormat, dataBytes: Int) -> [UInt8] {
        var h: [UInt8] = []
        func u32(_ v: Int) { for i in 0..<4 { h.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        func u16(_ v: Int) { for i in 0..<2 { h.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        let extensible = f.bitsPerSample > 16 || f.channels > 2
        let block = f.channels * ((f.bitsPerSample + 7) / 8)
        let fmtSize = extensible ? 40 : 16
        h += Array("RIFF".utf8); u32(4 + (8 + fmtSize) + 8 + dataBytes + (dataBytes & 1)); h += Array("WAVE".utf8)
        h += Array("fmt ".utf8); u32(fmtSize)
        u16(extensible ? 0xFFFE : 1); u16(f.channels); u32(f.sampleRate); u32(f.sampleRate * block); u16(block)
        u16(((f.bitsPerSample + 7) / 8) * 8)
        if extensible {
            u16(22); u16(f.bitsPerSample)
            // The usual speaker layouts for 1–8 channels (as flac writes them), else none.
            let masks = [0x4, 0x3, 0x7, 0x33, 0x37, 0x3F, 0x70F, 0x63F]
            u32(f.channels <= masks.count ? masks[f.channels - 1] : 0)
            // KSDATAFORMAT_SUBTYPE_PCM
            h += [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        h += Array("data".utf8); u32(dataBytes)
        return h
    }
}
