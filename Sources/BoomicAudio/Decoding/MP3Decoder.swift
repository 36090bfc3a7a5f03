@preconcurrency import CMPG123
import Foundation

/// Decodes an MP3 file with libmpg123, gaplessly: the encoder's delay and padding, which the
/// LAME/Xing header records, are cut, so tracks of one recording join without a gap. The samples
/// are what `mpg123 -s` writes: 16-bit at the file's own rate and channels.
///
/// Not `Sendable`: one decoder belongs to one thread.
public final class MP3Decoder {
    public let path: String
    public let format: PCMFormat
    /// Frames (samples per channel) after gapless trimming, from a scan of the whole file.
    public let totalFrames: Int?
    public private(set) var warnings: [String] = []

    private let handle: OpaquePointer
    private var bytes: [UInt8] = []

    public init(path: String) throws(AudioError) {
        self.path = path
        var err: Int32 = 0
        guard let mh = mpg123_new(nil, &err) else {
            throw AudioError(path: path, reason: "no MP3 decoder: \(String(cString: mpg123_plain_strerror(err)))")
        }
        // GAPLESS: trim by the LAME header. QUIET: problems come back as codes, never on stderr.
        _ = mpg123_param2(mh, Int32(MPG123_FLAGS.rawValue), Int(MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue), 0)
        // One output encoding at every rate: the file's rate and channels, 16-bit, as mpg123 -s.
        mpg123_format_none(mh)
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        for i in 0..<count {
            mpg123_format(mh, rates![i], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
        }
        func fail(_ what: String) -> AudioError {
            let reason = String(cString: mpg123_strerror(mh))
            mpg123_close(mh)
            mpg123_delete(mh)
            return AudioError(path: path, reason: "\(what): \(reason)")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            mpg123_delete(mh)
            throw AudioError(path: path, reason: "cannot open: No such file or directory")
        }
        guard mpg123_open(mh, path) == MPG123_OK.rawValue else { throw fail("cannot open") }
        // The exact length needs the whole file read once (cheap: headers only).
        guard mpg123_scan(mh) == MPG123_OK.rawValue else { throw fail("not an MP3 stream") }
        var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
        guard mpg123_getformat(mh, &rate, &channels, &encoding) == MPG123_OK.rawValue, rate > 0, channels > 0 else {
            throw fail("not an MP3 stream")
        }
        handle = mh
        format = PCMFormat(sampleRate: rate, channels: Int(channels), bitsPerSample: 16)
        let length = mpg123_length(mh)
        totalFrames = length >= 0 ? length : nil
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    /// Appends up to `maxFrames` frames of interleaved samples to `out`; returns how many were
    /// appended, 0 at the end of the stream.
    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        let frameBytes = 2 * format.channels
        let want = maxFrames * frameBytes
        if bytes.count < want { bytes = [UInt8](repeating: 0, count: want) }
        var filled = 0
        reading: while filled < want {
            var done = 0
            let r = bytes.withUnsafeMutableBytes { b in
                mpg123_read(handle, b.baseAddress! + filled, want - filled, &done)
            }
            filled += done
            switch r {
            case MPG123_DONE.rawValue, MPG123_NEED_MORE.rawValue:
                break reading
            case MPG123_NEW_FORMAT.rawValue:
                continue
            case MPG123_OK.rawValue:
                if done == 0 { break reading } // nothing more came: never spin
            default:
                // A damaged frame: libmpg123 resyncs on the next read; say so once per problem.
                let reason = String(cString: mpg123_strerror(handle))
                warnings.append(reason)
                if done == 0 && warnings.count > 1_000 {
                    throw AudioError(path: path, reason: "decoding stopped: \(reason)")
                }
            }
        }
        let frames = filled / frameBytes
        bytes.withUnsafeBytes { PCM16.append($0, count: frames * format.channels, to: &out) }
        return frames
    }

    /// Sample-exact after the scan in `init` (libmpg123 then holds a full frame index and
    /// decodes from the frame before, as its gapless mode needs).
    public func seek(toFrame frame: Int) throws(AudioError) {
        let r = mpg123_seek(handle, off_t(max(0, min(frame, totalFrames ?? frame))), SEEK_SET)
        guard r >= 0 else { throw AudioError(path: path, reason: "cannot seek: \(String(cString: mpg123_strerror(handle)))") }
    }
}
