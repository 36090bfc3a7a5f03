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
    private var bytes: [Int16] = []
    private var mender: HoleMender<Int16>

    public init(path: String) throws(AudioError) {
        self.path = path
        // vorbisfile reads a stream over the descriptor opened here (AudioFile: the path is not
        // opened again) and closes it at `ov_clear`; when `ov_open` fails, it is ours to close.
        let stream = try AudioFile.stream(try AudioFile.open(path))
        file = .allocate(capacity: 1)
        let r = ov_open(stream, file, nil, 0)
        guard r == 0 else {
            fclose(stream)
            file.deallocate()
            throw AudioError(path: path, reason: r == OV_ENOTVORBIS ? "not an Ogg Vorbis stream" : "cannot open (\(Self.describe(r)))")
        }
        guard let info = ov_info(file, -1) else {
            ov_clear(file)
            file.deallocate()
            throw AudioError(path: path, reason: "not an Ogg Vorbis stream")
        }
        format = PCMFormat(sampleRate: info.pointee.rate, channels: Int(info.pointee.channels), bitsPerSample: 16)
        mender = HoleMender(channels: format.channels, sampleRate: format.sampleRate)
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
        if bytes.count < want { bytes = [Int16](repeating: 0, count: want / 2) }
        var section: Int32 = 0
        while mender.available < maxFrames {
            let n = bytes.withUnsafeMutableBytes { b in
                ov_read(file, b.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(want), 0, 2, 1, &section)
            }
            if n == 0 {
                mender.finish()
                break
            }
            if n < 0 {
                // A hole in the stream (OV_HOLE) or a damaged page: vorbisfile goes on after it,
                // and the mender puts the missing length back as silence.
                warnings.append(Self.describe(Int32(n)))
                if warnings.count > 1_000 { throw AudioError(path: path, reason: "decoding stopped: \(Self.describe(Int32(n)))") }
                mender.hole()
                continue
            }
            let silence = bytes.withUnsafeBufferPointer { b in
                mender.take(UnsafeBufferPointer(rebasing: b[0..<(Int(n) / 2)]), endingAt: Int(ov_pcm_tell(file)))
            }
            if silence > 0 { warnings.append(Self.silenced(silence, rate: format.sampleRate)) }
        }
        // A chained stream may change channels at a link: the engine treats that as a new format.
        let frames = min(maxFrames, mender.available)
        mender.handOut(frames) { samples in
            out.reserveCapacity(out.count + samples.count)
            for s in samples { out.append(Int32(s)) }
        }
        return frames
    }

    /// vorbisfile's sample-exact seek.
    public func seek(toFrame frame: Int) throws(AudioError) {
        // The libraries refuse a seek to the very end: remember it instead.
        atEnd = totalFrames.map { frame >= $0 } ?? false
        if atEnd { return }
        let r = ov_pcm_seek(file, ogg_int64_t(max(0, frame)))
        guard r == 0 else { throw AudioError(path: path, reason: "cannot seek (\(Self.describe(r)))") }
        mender.reset(at: max(0, frame))
    }

    /// The warning for silence put in a hole's place.
    static func silenced(_ frames: Int, rate: Int) -> String {
        "\(frames) samples (\(String(format: "%.3f", Double(frames) / Double(rate))) s) lost to damage, played as silence"
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
