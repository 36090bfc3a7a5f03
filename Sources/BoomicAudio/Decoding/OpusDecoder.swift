@preconcurrency import COpusFile
import Foundation

/// Decodes an Ogg Opus file with libopusfile: 16-bit at 48 kHz (Opus's own rate, whatever rate the
/// encoder was given), with the pre-skip and end trimming the stream records, so tracks join
/// gaplessly. Decoded as float and rounded without dither (libopusfile's `op_read` adds shaped
/// dither of its own); `opusdec` is no sample-exact reference for either.
///
/// Not `Sendable`: one decoder belongs to one thread.
public final class OpusDecoder: AudioDecoder {
    public let path: String
    public let format: PCMFormat
    public let totalFrames: Int?
    public private(set) var warnings: [String] = []
    /// Set by a seek to the end or past it: `read` returns 0 until the next seek.
    private var atEnd = false

    private let file: OpaquePointer
    private var pcm: [Float] = []

    public init(path: String) throws(AudioError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw AudioError(path: path, reason: "cannot open: No such file or directory")
        }
        var err: Int32 = 0
        guard let f = op_open_file(path, &err) else {
            throw AudioError(path: path, reason: err == OP_ENOTFORMAT || err == OP_EBADHEADER ? "not an Ogg Opus stream" : "cannot open (\(Self.describe(err)))")
        }
        file = f
        format = PCMFormat(sampleRate: 48_000, channels: Int(op_channel_count(f, -1)), bitsPerSample: 16)
        let total = op_pcm_total(f, -1)
        totalFrames = total >= 0 ? Int(total) : nil
    }

    deinit { op_free(file) }

    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        if atEnd { return 0 }
        let channels = format.channels
        let want = maxFrames * channels
        if pcm.count < want { pcm = [Float](repeating: 0, count: want) }
        var filled = 0   // frames
        while filled < maxFrames {
            var link: Int32 = 0
            let n = pcm.withUnsafeMutableBufferPointer { b in
                op_read_float(file, b.baseAddress! + filled * channels, Int32((maxFrames - filled) * channels), &link)
            }
            if n == 0 { break }
            if n < 0 {
                warnings.append(Self.describe(n))
                if warnings.count > 1_000 { throw AudioError(path: path, reason: "decoding stopped: \(Self.describe(n))") }
                continue
            }
            filled += Int(n)
        }
        out.reserveCapacity(out.count + filled * channels)
        // To 16 bits: scaled, rounded to nearest, clipped.
        for i in 0..<(filled * channels) {
            let v = (pcm[i] * 32768).rounded()
            out.append(Int32(max(-32768, min(32767, v))))
        }
        return filled
    }

    /// libopusfile's sample-exact seek (in 48 kHz samples, the stream's own).
    public func seek(toFrame frame: Int) throws(AudioError) {
        // The libraries refuse a seek to the very end: remember it instead.
        atEnd = totalFrames.map { frame >= $0 } ?? false
        if atEnd { return }
        let r = op_pcm_seek(file, ogg_int64_t(max(0, frame)))
        guard r == 0 else { throw AudioError(path: path, reason: "cannot seek (\(Self.describe(r)))") }
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case OP_HOLE: return "a gap in the data (damaged or missing pages)"
        case OP_EBADLINK: return "a damaged link in the stream"
        case OP_EREAD: return "a read error"
        case OP_ENOTFORMAT, OP_EBADHEADER: return "not an Ogg Opus stream"
        case OP_EVERSION: return "an unsupported Opus version"
        case OP_EBADPACKET: return "a damaged packet"
        default: return "libopusfile error \(code)"
        }
    }
}
