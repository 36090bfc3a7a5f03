@preconcurrency import CFLAC
import Foundation

/// Decodes a FLAC file with libFLAC, the reference decoder: the samples are exactly what
/// `flac -d` writes, 8 to 32 bits at any rate.
///
/// libFLAC pushes one frame at a time into a callback; `read` pulls frames until it has enough.
/// Not `Sendable`: one decoder belongs to one thread (the engine's decode thread).
public final class FLACDecoder {
    public let path: String
    /// From STREAMINFO, so known before the first sample.
    public let format: PCMFormat
    /// Frames (samples per channel) in the file, when STREAMINFO says (0 there means unknown).
    public let totalFrames: Int?
    /// Problems met while decoding that did not stop it (a damaged frame, lost sync), in order.
    public private(set) var warnings: [String] = []

    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    private let state: State

    /// What libFLAC's callbacks write into, reached through `client_data`.
    private final class State {
        var format: PCMFormat?
        var total: UInt64 = 0
        /// Decoded samples not yet handed out, interleaved, from `start`.
        var pending: [Int32] = []
        var start = 0
        var errors: [String] = []
    }

    public init(path: String) throws(AudioError) {
        self.path = path
        guard let d = FLAC__stream_decoder_new() else { throw AudioError(path: path, reason: "out of memory for a FLAC decoder") }
        let state = State()
        let client = Unmanaged.passUnretained(state).toOpaque()
        // libFLAC reads a stream over the descriptor opened here (AudioFile: no path is opened
        // again), and closes it at `finish`, which `delete` calls too.
        let stream: UnsafeMutablePointer<FILE>
        do { stream = try AudioFile.stream(try AudioFile.open(path)) } catch {
            FLAC__stream_decoder_delete(d)
            throw error
        }
        let status = FLAC__stream_decoder_init_FILE(d, stream, Self.write, Self.metadata, Self.error, client)
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            // The decoder owns the stream once it has checked its arguments (libFLAC's
            // init_FILE_internal_), which ours pass; `delete` closes it.
            FLAC__stream_decoder_delete(d)
            throw AudioError(path: path, reason: "cannot open: \(String(cString: cflac_init_status_string(status)))")
        }
        guard FLAC__stream_decoder_process_until_end_of_metadata(d) != 0, let format = state.format else {
            let s = FLAC__stream_decoder_get_state(d)
            FLAC__stream_decoder_finish(d)
            FLAC__stream_decoder_delete(d)
            throw AudioError(path: path, reason: "not a FLAC stream (\(state.errors.first ?? String(cString: cflac_decoder_state_string(s))))")
        }
        decoder = d
        self.state = state
        self.format = format
        totalFrames = state.total > 0 ? Int(state.total) : nil
        warnings = state.errors
        state.errors = []
    }

    deinit {
        FLAC__stream_decoder_finish(decoder)
        FLAC__stream_decoder_delete(decoder)
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
        let channels = format.channels
        let wanted = min(maxFrames, buffer.count / channels)
        while state.pending.count - state.start < wanted * channels {
            let s = FLAC__stream_decoder_get_state(decoder)
            if s == FLAC__STREAM_DECODER_END_OF_STREAM { break }
            let ok = FLAC__stream_decoder_process_single(decoder) != 0
            if !state.errors.isEmpty {
                warnings += state.errors
                state.errors = []
            }
            if !ok {
                let s = FLAC__stream_decoder_get_state(decoder)
                if s == FLAC__STREAM_DECODER_END_OF_STREAM { break }
                throw AudioError(path: path, reason: "decoding stopped: \(String(cString: cflac_decoder_state_string(s)))")
            }
        }
        let available = (state.pending.count - state.start) / channels
        let n = min(wanted, available)
        if n > 0 {
            state.pending.withUnsafeBufferPointer { p in
                buffer.baseAddress!.update(from: p.baseAddress! + state.start, count: n * channels)
            }
        }
        state.start += n * channels
        if state.start == state.pending.count {
            state.pending.removeAll(keepingCapacity: true)
            state.start = 0
        } else if state.start >= state.pending.count / 2 {
            // What is left (less than a block) moves to the front, or `pending` would grow
            // with the song when reads and FLAC blocks are of different sizes.
            state.pending.removeSubrange(0..<state.start)
            state.start = 0
        }
        return n
    }

    /// libFLAC's own sample-exact seek: it decodes the frame holding `frame` and hands out
    /// samples from `frame` on.
    public func seek(toFrame frame: Int) throws(AudioError) {
        state.pending.removeAll(keepingCapacity: true)
        state.start = 0
        if let totalFrames, frame >= totalFrames {
            // Past the end: read to the end so that the next read returns 0.
            while FLAC__stream_decoder_get_state(decoder) != FLAC__STREAM_DECODER_END_OF_STREAM,
                  FLAC__stream_decoder_skip_single_frame(decoder) != 0 {}
            return
        }
        guard FLAC__stream_decoder_seek_absolute(decoder, UInt64(max(0, frame))) != 0 else {
            let s = FLAC__stream_decoder_get_state(decoder)
            _ = FLAC__stream_decoder_flush(decoder)
            throw AudioError(path: path, reason: "cannot seek: \(String(cString: cflac_decoder_state_string(s)))")
        }
        warnings += state.errors
        state.errors = []
    }

    // MARK: libFLAC callbacks

    private static let write: FLAC__StreamDecoderWriteCallback = { _, frame, buffer, client in
        let state = Unmanaged<State>.fromOpaque(client!).takeUnretainedValue()
        guard let frame, let buffer else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
        let header = frame.pointee.header
        let n = Int(header.blocksize), channels = Int(header.channels)
        // Grown once, then interleaved channel by channel through a pointer (an append per
        // sample costs a fifth of the decoding time).
        let start = state.pending.count
        state.pending.append(contentsOf: repeatElement(0, count: n * channels))
        state.pending.withUnsafeMutableBufferPointer { p in
            for c in 0..<channels {
                let source = buffer[c]!
                var j = start + c
                for i in 0..<n {
                    p[j] = source[i]
                    j += channels
                }
            }
        }
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    private static let metadata: FLAC__StreamDecoderMetadataCallback = { _, meta, client in
        let state = Unmanaged<State>.fromOpaque(client!).takeUnretainedValue()
        guard let meta, meta.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
        let info = meta.pointee.data.stream_info
        state.format = PCMFormat(sampleRate: Int(info.sample_rate), channels: Int(info.channels),
                                 bitsPerSample: Int(info.bits_per_sample))
        state.total = info.total_samples
    }

    private static let error: FLAC__StreamDecoderErrorCallback = { _, status, client in
        let state = Unmanaged<State>.fromOpaque(client!).takeUnretainedValue()
        state.errors.append(String(cString: cflac_decoder_error_string(status)))
    }
}
