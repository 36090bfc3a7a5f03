@preconcurrency import CVorbisFile
import Foundation

/// Decodes an Ogg Vorbis file with libvorbisfile, as `oggdec` does: 16-bit at the stream's rate,
/// with the codec's own start and end trimming (granule positions), so tracks join gaplessly.
///
/// Not `Sendable`: one decoder belongs to one thread.
public final class VorbisDecoder: AudioDecoder {
    public let path: String
    public let format: PCMFormat
    public let totalFrames: Int?
    public private(set) var warnings: [String] = []
    /// Set by a seek to the end or past it: `read` returns 0 until the next seek.
    private var atEnd = false

    private let file: UnsafeMutablePointer<OggVorbis_File>
    private var bytes: [CChar] = []

    public init(path: String) throws(AudioError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw AudioError(path: path, reason: "cannot open: No such file or directory")
        }
        file = .allocate(capacity: 1)
        let r = ov_fopen(path, file)
        guard r == 0 else {
            file.deallocate()
            throw AudioError(path: path, reason: r == OV_ENOTVORBIS ? "not an Ogg Vorbis stream" : "cannot open (\(Self.describe(r)))")
        }
        guard let info = ov_info(file, -1) else {
            ov_clear(file)
            file.deallocate()
            throw AudioError(path: path, reason: "not an Ogg Vorbis stream")
        }
        format = PCMFormat(sampleRate: info.pointee.rate, channels: Int(info.pointee.channels), bitsPerSample: 16)
        let total = ov_pcm_total(file, -1)
        totalFrames = total >= 0 ? Int(total) : nil
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        if atEnd { return 0 }
        let frameBytes = 2 * format.channels
        let want = maxFrames * frameBytes
        if bytes.count < want { bytes = [CChar](repeating: 0, count: want) }
        var filled = 0
        var section: Int32 = 0
        while filled < want {
            let n = bytes.withUnsafeMutableBufferPointer { b in
                ov_read(file, b.baseAddress! + filled, Int32(want - filled), 0, 2, 1, &section)
            }
            if n == 0 { break }
            if n < 0 {
                // A hole in the stream (OV_HOLE) or a damaged page: vorbisfile goes on after it.
                warnings.append(Self.describe(Int32(n)))
                if warnings.count > 1_000 { throw AudioError(path: path, reason: "decoding stopped: \(Self.describe(Int32(n)))") }
                continue
            }
            filled += n
        }
        // A chained stream may change channels at a link: the engine treats that as a new format.
        let frames = filled / frameBytes
        bytes.withUnsafeBytes { PCM16.append($0, count: frames * format.channels, to: &out) }
        return frames
    }

    /// vorbisfile's sample-exact seek.
    public func seek(toFrame frame: Int) throws(AudioError) {
        // The libraries refuse a seek to the very end: remember it instead.
        atEnd = totalFrames.map { frame >= $0 } ?? false
        if atEnd { return }
        let r = ov_pcm_seek(file, ogg_int64_t(max(0, frame)))
        guard r == 0 else { throw AudioError(path: path, reason: "cannot seek (\(Self.describe(r)))") }
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case OV_HOLE: return "a gap in the data (damaged or missing pages)"
        case OV_EBADLINK: return "a damaged link in the stream"
        case OV_EREAD: return "a read error"
        case OV_EBADHEADER, OV_ENOTVORBIS: return "not an Ogg Vorbis stream"
        case OV_EVERSION: return "an unsupported Vorbis version"
        default: return "libvorbisfile error \(code)"
        }
    }
}
