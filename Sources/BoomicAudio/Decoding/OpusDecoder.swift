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
    private var mender: HoleMender<Float>

    public init(path: String) throws(AudioError) {
        self.path = path
        // opusfile reads a stream over a duplicate of the descriptor opened here (AudioFile: the
        // path is not opened again) and closes it at `op_free`; when the open fails, it is ours
        // to close.
        let source = try AudioFile.open(path)
        let fd = try AudioFile.duplicate(source)
        var callbacks = OpusFileCallbacks()
        guard let stream = op_fdopen(&callbacks, fd, "rb") else {
            close(fd)
            throw AudioError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        var err: Int32 = 0
        guard let f = op_open_callbacks(stream, &callbacks, nil, 0, &err) else {
            _ = callbacks.close?(stream)
            throw AudioError(path: path, reason: err == OP_ENOTFORMAT || err == OP_EBADHEADER ? "not an Ogg Opus stream" : "cannot open (\(Self.describe(err)))")
        }
        file = f
        format = PCMFormat(sampleRate: 48_000, channels: Int(op_channel_count(f, -1)), bitsPerSample: 16)
        mender = HoleMender(channels: format.channels, sampleRate: format.sampleRate)
        let total = op_pcm_total(f, -1)
        totalFrames = total >= 0 ? Int(total) : nil
    }

    deinit { op_free(file) }

    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        if atEnd { return 0 }
        let channels = format.channels
        let want = maxFrames * channels
        if pcm.count < want { pcm = [Float](repeating: 0, count: want) }
        while mender.available < maxFrames {
            var link: Int32 = 0
            let n = pcm.withUnsafeMutableBufferPointer { b in
                op_read_float(file, b.baseAddress!, Int32(want), &link)
            }
            if n == 0 {
                mender.finish()
                break
            }
            if n < 0 {
                // A hole (damaged or missing pages): libopusfile goes on after it, and the
                // mender puts the missing length back as silence.
                warnings.append(Self.describe(n))
                if warnings.count > 1_000 { throw AudioError(path: path, reason: "decoding stopped: \(Self.describe(n))") }
                mender.hole()
                continue
            }
            let silence = pcm.withUnsafeBufferPointer { b in
                mender.take(UnsafeBufferPointer(rebasing: b[0..<(Int(n) * channels)]), endingAt: Int(op_pcm_tell(file)))
            }
            if silence > 0 { warnings.append(VorbisDecoder.silenced(silence, rate: format.sampleRate)) }
        }
        let frames = min(maxFrames, mender.available)
        // To 16 bits: scaled, rounded to nearest, clipped.
        mender.handOut(frames) { samples in
            out.reserveCapacity(out.count + samples.count)
            for s in samples {
                let v = (s * 32768).rounded()
                out.append(Int32(max(-32768, min(32767, v))))
            }
        }
        return frames
    }

    /// libopusfile's sample-exact seek (in 48 kHz samples, the stream's own).
    public func seek(toFrame frame: Int) throws(AudioError) {
        // The libraries refuse a seek to the very end: remember it instead.
        atEnd = totalFrames.map { frame >= $0 } ?? false
        if atEnd { return }
        let r = op_pcm_seek(file, ogg_int64_t(max(0, frame)))
        guard r == 0 else { throw AudioError(path: path, reason: "cannot seek (\(Self.describe(r)))") }
        mender.reset(at: max(0, frame))
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
