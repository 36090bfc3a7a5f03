import Foundation

/// What the engine asks of every decoder: its format before the first sample, its length when
/// known, and samples pulled in blocks. Pull, not push, so the engine decides how far ahead it
/// decodes (and opens the next song's decoder before this one ends: gapless).
public protocol AudioDecoder: AnyObject {
    var path: String { get }
    var format: PCMFormat { get }
    /// Frames (samples per channel), when the file says.
    var totalFrames: Int? { get }
    /// Problems met that did not stop decoding, in order.
    var warnings: [String] { get }
    /// Appends up to `maxFrames` frames of interleaved samples to `out`; 0 at the end.
    func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int
    /// Writes up to `maxFrames` frames of interleaved samples from the start of `buffer`, and no
    /// more than it holds; 0 at the end. The engine's bit-exact path decodes through it straight
    /// into a slot of its ring, with no array in between.
    func read(into buffer: UnsafeMutableBufferPointer<Int32>, maxFrames: Int) throws(AudioError) -> Int
    /// Writes up to `maxFrames` frames of a 16-bit source's samples as they are, packed from the
    /// start of `buffer`; nil when the decoder has no such read (then `read(into:)` it is). The
    /// engine's bit-exact path for 16-bit sources: its output thread widens them to `Int32`
    /// (`PCM16.widenInPlace`), so the decode thread does not.
    func read16(into buffer: UnsafeMutableRawBufferPointer, maxFrames: Int) throws(AudioError) -> Int?
    /// Moves so that the next `read` starts at `frame` exactly (sample-exact, so `--resume`
    /// lands on the same sample); past the end, the next `read` returns 0.
    func seek(toFrame frame: Int) throws(AudioError)
    /// Appends up to `maxFrames` frames of interleaved float samples (±1.0 full scale) to
    /// `out`; 0 at the end. The read path of float sources (`format.isFloat`), which hand their
    /// samples on unchanged; integer decoders scale theirs by 1/2^(bits-1).
    func read(into out: inout [Float], maxFrames: Int) throws(AudioError) -> Int
}

extension AudioDecoder {
    /// Integer decoders' float samples: their integers scaled. It allocates a block of
    /// integers per call, which the decode thread can afford; the engine's own conversion
    /// (`FormatConverter`) does not.
    public func read(into out: inout [Float], maxFrames: Int) throws(AudioError) -> Int {
        var ints: [Int32] = []
        let n = try read(into: &ints, maxFrames: maxFrames)
        let scale = 1 / Float(Int64(1) << (format.bitsPerSample - 1))
        out.reserveCapacity(out.count + ints.count)
        for s in ints { out.append(Float(s) * scale) }
        return n
    }

    public func read16(into buffer: UnsafeMutableRawBufferPointer, maxFrames: Int) throws(AudioError) -> Int? { nil }

    /// Through the array read, for decoders that have no buffer read of their own: one block
    /// allocated per call and copied once.
    public func read(into buffer: UnsafeMutableBufferPointer<Int32>, maxFrames: Int) throws(AudioError) -> Int {
        let channels = max(1, format.channels)
        var block: [Int32] = []
        block.reserveCapacity(min(maxFrames, buffer.count / channels) * channels)
        let n = try read(into: &block, maxFrames: min(maxFrames, buffer.count / channels))
        block.withUnsafeBufferPointer { b in _ = buffer.update(fromContentsOf: b) }
        return n
    }
}

extension UnsafeMutableBufferPointer<Int32> {
    /// Appends to `out` what `read` writes into room for `maxFrames` frames at its end: the
    /// array read of decoders whose own read fills a buffer.
    static func appending(to out: inout [Int32], maxFrames: Int, channels: Int,
                          _ read: (UnsafeMutableBufferPointer<Int32>) throws(AudioError) -> Int) throws(AudioError) -> Int {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: maxFrames * channels))
        // withUnsafeMutableBufferPointer rethrows only untyped errors: carry the typed one out.
        let result = out.withUnsafeMutableBufferPointer { b in
            Result { () throws(AudioError) in try read(UnsafeMutableBufferPointer(rebasing: b[start...])) }
        }
        switch result {
        case let .success(n):
            out.removeLast((maxFrames - n) * channels)
            return n
        case let .failure(error):
            out.removeLast(maxFrames * channels)
            throw error
        }
    }
}

extension FLACDecoder: AudioDecoder {}
extension MP3Decoder: AudioDecoder {}

/// Opens the decoder for a file by its name's extension (the library has already read its tags,
/// so the extension is what it is).
///
/// Boomic's own decoders come first, as in MPD: they are bit-exact against the reference
/// decoders (`flac -d`, `mpg123`, `oggdec`) and gapless from the codecs' own trimming. FFmpeg
/// (through `boomic-ffmpeg`) takes every other format, and a file that the decoder its name
/// points to refuses as not its format: an `.ogg` holding Opus or FLAC, a `.wav` holding
/// ADPCM.
public enum Decoders {
    public static func open(_ path: String) throws(AudioError) -> any AudioDecoder {
        switch path.split(separator: ".").last?.lowercased() {
        case "flac": return try FLACDecoder(path: path)
        case "mp3": return try MP3Decoder(path: path)
        case "opus": return try OpusDecoder(path: path)
        case "wv": return try firstOpening(path, [.wavpack, .ffmpeg])
        case "ogg", "oga": return try firstOpening(path, [.vorbis, .opus, .ffmpeg])
        case "wav", "aif", "aiff", "aifc": return try firstOpening(path, [.pcm, .ffmpeg])
        default: return try FFmpegDecoder(path: path)
        }
    }

    /// What the player decodes, as MPD's `decoders` command lists its plugins: a name, the file
    /// suffixes and the MIME types; FFmpeg's only when `boomic-ffmpeg` is there to run.
    public struct Plugin: Sendable, Equatable {
        public var name: String
        public var suffixes: [String]
        public var mimeTypes: [String]
    }

    public static var plugins: [Plugin] {
        var list = [
            Plugin(name: "flac", suffixes: ["flac"], mimeTypes: ["audio/flac", "audio/x-flac"]),
            Plugin(name: "mpg123", suffixes: ["mp3"], mimeTypes: ["audio/mpeg"]),
            Plugin(name: "vorbis", suffixes: ["ogg", "oga"], mimeTypes: ["audio/ogg", "audio/vorbis"]),
            Plugin(name: "opus", suffixes: ["opus"], mimeTypes: ["audio/ogg", "audio/opus"]),
            Plugin(name: "pcm", suffixes: ["wav", "aif", "aiff", "aifc"], mimeTypes: ["audio/wav", "audio/x-wav", "audio/aiff"]),
            Plugin(name: "wavpack", suffixes: ["wv"], mimeTypes: ["audio/x-wavpack"]),
        ]
        if FFmpegDecoder.program != nil {
            list.append(Plugin(name: "ffmpeg", suffixes: ["m4a", "mp4", "aac", "ape", "mpc", "tta", "wma", "spx"],
                               mimeTypes: ["audio/mp4", "audio/aac", "audio/x-ape", "audio/x-musepack",
                                           "audio/x-tta", "audio/x-ms-wma", "audio/x-speex"]))
        }
        return list
    }

    private enum Kind {
        case vorbis, opus, pcm, wavpack, ffmpeg

        func open(_ path: String) throws(AudioError) -> any AudioDecoder {
            switch self {
            case .vorbis: return try VorbisDecoder(path: path)
            case .opus: return try OpusDecoder(path: path)
            case .pcm: return try PCMFileDecoder(path: path)
            case .wavpack: return try WavPackDecoder(path: path)
            case .ffmpeg: return try FFmpegDecoder(path: path)
            }
        }
    }

    /// The first decoder that opens the file; when none does, the first one's reason, which
    /// names what the file's extension promised.
    private static func firstOpening(_ path: String, _ kinds: [Kind]) throws(AudioError) -> any AudioDecoder {
        var first: AudioError?
        for kind in kinds {
            do {
                return try kind.open(path)
            } catch {
                if first == nil { first = error }
                // A file that cannot be opened (missing, no permission, a FIFO) is so for
                // every decoder: FFmpeg's would only say it again.
                if error.cause != nil { break }
            }
        }
        throw first!
    }
}
