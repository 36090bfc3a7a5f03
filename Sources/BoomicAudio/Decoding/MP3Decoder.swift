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
    /// The bytes libmpg123 reads, with damaged frames zeroed; outlives `handle`'s use of it.
    private let reader: MP3FrameGuard
    /// What the last decoded MPEG frame holds that is not handed out yet: zeros owed for frames
    /// lost before it, then its samples, read from libmpg123's own buffer (valid until the next
    /// decode or seek), so they are copied once, widened, to where the caller wants them.
    private var silenceLeft = 0
    private var frameSamples: UnsafePointer<Int16>?
    private var frameLeft = 0
    /// Frames handed out since the start or the last seek.
    private var handedOut = 0
    /// Where the next MPEG frame should start in the file, and the last one's size in bytes.
    private var nextFrameAt: Int?
    private var lastFrameSize = 0

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
        let reader: MP3FrameGuard
        do { reader = try MP3FrameGuard(path: path) } catch {
            mpg123_delete(mh)
            throw error
        }
        mpg123_replace_reader_handle(mh, { handle, buffer, count in
            Unmanaged<MP3FrameGuard>.fromOpaque(handle!).takeUnretainedValue().read(into: buffer!, count: count)
        }, { handle, offset, whence in
            off_t(Unmanaged<MP3FrameGuard>.fromOpaque(handle!).takeUnretainedValue().seek(Int(offset), whence: whence))
        }, nil)
        guard mpg123_open_handle(mh, Unmanaged.passUnretained(reader).toOpaque()) == MPG123_OK.rawValue else { throw fail("cannot open") }
        self.reader = reader
        var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
        guard mpg123_getformat(mh, &rate, &channels, &encoding) == MPG123_OK.rawValue, rate > 0, channels > 0 else {
            throw fail("not an MP3 stream")
        }
        // The exact length comes from the LAME header (its encoder delay is known then, and
        // its Xing part counts the frames), which libmpg123 has read with the first frame;
        // without one, from a scan of the whole file: headers only, but the whole file, and it
        // is most of the time an MP3 takes to open. Seeks are sample-exact either way:
        // libmpg123 walks the frame headers to them.
        var delay = -1
        var unused = 0.0
        if mpg123_getstate2(mh, Int32(MPG123_ENC_DELAY.rawValue), &delay, &unused) != MPG123_OK.rawValue || delay < 0 {
            guard mpg123_scan(mh) == MPG123_OK.rawValue else { throw fail("not an MP3 stream") }
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
        try UnsafeMutableBufferPointer.appending(to: &out, maxFrames: maxFrames, channels: format.channels) { (b) throws(AudioError) in
            try read(into: b, maxFrames: maxFrames)
        }
    }

    /// Writes up to `maxFrames` frames of interleaved samples from the start of `buffer` (no
    /// more than it holds); returns how many, 0 at the end of the stream.
    public func read(into buffer: UnsafeMutableBufferPointer<Int32>, maxFrames: Int) throws(AudioError) -> Int {
        guard let out = buffer.baseAddress else { return 0 }
        return try fill(UnsafeMutableRawPointer(out), maxFrames: min(maxFrames, buffer.count / format.channels), packed: false)
    }

    /// The samples as libmpg123 gives them, 16-bit, packed from the start of `buffer`: the
    /// engine's ring takes them so, and its output thread widens them (off the decode thread).
    public func read16(into buffer: UnsafeMutableRawBufferPointer, maxFrames: Int) throws(AudioError) -> Int? {
        guard let out = buffer.baseAddress else { return 0 }
        return try fill(out, maxFrames: min(maxFrames, buffer.count / (2 * format.channels)), packed: true)
    }

    /// Decodes frame by frame, watching where each MPEG frame starts: where libmpg123 had to
    /// resync past bytes that should have held frames (a damaged header), that many frames of
    /// silence go in their place, so the song keeps its length and what follows its position.
    /// Writes `Int32` samples, or 16-bit ones when `packed`.
    private func fill(_ out: UnsafeMutableRawPointer, maxFrames: Int, packed: Bool) throws(AudioError) -> Int {
        let channels = format.channels
        var frames = maxFrames
        // Past the length the LAME header gives (a lost frame moved the encoder's padding
        // later than libmpg123 cuts it) is padding.
        if let totalFrames { frames = max(0, min(frames, totalFrames - handedOut)) }
        let wanted = frames * channels
        let width = packed ? 2 : 4
        var filled = 0
        decoding: while filled < wanted {
            if silenceLeft > 0 {
                let n = min(silenceLeft, wanted - filled)
                (out + filled * width).initializeMemory(as: UInt8.self, repeating: 0, count: n * width)
                silenceLeft -= n
                filled += n
                continue
            }
            if frameLeft > 0, let samples = frameSamples {
                let n = min(frameLeft, wanted - filled)
                if packed {
                    (out + filled * 2).copyMemory(from: samples, byteCount: n * 2)
                } else {
                    PCM16.widen(samples, count: n, to: (out + filled * 4).assumingMemoryBound(to: Int32.self))
                }
                frameSamples = samples + n
                frameLeft -= n
                filled += n
                continue
            }
            var num: off_t = 0
            var audio: UnsafeMutablePointer<UInt8>?
            var count = 0
            let r = mpg123_decode_frame(handle, &num, &audio, &count)
            switch r {
            case MPG123_OK.rawValue:
                fillLostFrames()
                if let audio, count > 1 {
                    // libmpg123's buffer is malloc'd and holds native-endian 16-bit samples.
                    frameSamples = UnsafeRawPointer(audio).bindMemory(to: Int16.self, capacity: count / 2)
                    frameLeft = count / 2
                }
            case MPG123_NEW_FORMAT.rawValue:
                continue
            case MPG123_DONE.rawValue, MPG123_NEED_MORE.rawValue:
                break decoding
            default:
                let reason = String(cString: mpg123_strerror(handle))
                warnings.append(reason)
                if warnings.count > 1_000 { throw AudioError(path: path, reason: "decoding stopped: \(reason)") }
            }
        }
        handedOut += filled / channels
        return filled / channels
    }

    /// After a frame decoded: if it starts past where the one before ended, by at least half a
    /// frame's bytes, the bytes between held frames libmpg123 could not find (their headers
    /// were damaged); their length is owed as silence, handed out before the frame's samples.
    private func fillLostFrames() {
        var info = mpg123_frameinfo2()
        guard mpg123_info2(handle, &info) == MPG123_OK.rawValue else { return }
        let position = Int(mpg123_framepos(handle))
        defer {
            nextFrameAt = position + Int(info.framesize)
            lastFrameSize = Int(info.framesize)
        }
        guard let expected = nextFrameAt, lastFrameSize > 0, position > expected else { return }
        let lost = Int((Double(position - expected) / Double(lastFrameSize)).rounded())
        guard lost > 0 else { return }
        let samplesPerFrame = info.layer == 1 ? 384 : info.layer == 3 && info.version != Int32(MPG123_1_0.rawValue) ? 576 : 1152
        silenceLeft += lost * samplesPerFrame * format.channels
        warnings.append("\(lost * samplesPerFrame) samples (\(String(format: "%.3f", Double(lost * samplesPerFrame) / Double(format.sampleRate))) s) lost to a damaged frame at byte \(expected), played as silence")
    }

    /// Sample-exact: libmpg123 keeps an index of the frames it has met and walks the headers
    /// past it, then decodes from the frame before, as its gapless mode needs.
    public func seek(toFrame frame: Int) throws(AudioError) {
        let target = max(0, min(frame, totalFrames ?? frame))
        let r = mpg123_seek(handle, off_t(target), SEEK_SET)
        guard r >= 0 else { throw AudioError(path: path, reason: "cannot seek: \(String(cString: mpg123_strerror(handle)))") }
        silenceLeft = 0
        frameSamples = nil
        frameLeft = 0
        handedOut = Int(r)
        nextFrameAt = nil
    }
}
