import BoomicCore
import BoomicDecoderPipe
import BoomicSystem
import Foundation

/// Decodes what only FFmpeg reads (AAC and ALAC in M4A, WavPack, APE, Musepack, Ogg FLAC, …)
/// through `boomic-ffmpeg`, a program of Boomic's that links FFmpeg, reading its samples from a
/// pipe (`DecoderPipe`). MPD keeps FFmpeg behind its own decoders for the same formats; Boomic
/// keeps it in another process, because Debian's FFmpeg is GPL-bound (NOTICE) and because a
/// crash inside it on a hostile file then ends a song, not the player.
///
/// Samples come as FFmpeg's decoder gives them, unchanged (a lossless file gives back the
/// original bit for bit); a seek starts the program again at the exact sample.
///
/// The file is opened here (`AudioFile`: a FIFO named like a song fails at once) and the
/// program reads that descriptor, given to it as its descriptor 3; it never opens the path.
///
/// Not `Sendable`: one decoder belongs to one thread.
public final class FFmpegDecoder: AudioDecoder {
    public let path: String
    public let format: PCMFormat
    public let totalFrames: Int?
    /// FFmpeg's name of the codec (`alac`, `aac`, `wavpack`).
    public let codec: String
    public private(set) var warnings: [String] = []

    private let program: String
    /// The file, open for every run of the program (a seek starts another).
    private let file: FileDescriptor
    private var reader: DecoderPipeReader
    /// Samples received and not yet handed out (`SampleWords`).
    private var words: [Int32] = []
    private var taken = 0
    private var ended = false

    /// Where `boomic-ffmpeg` is: `$BOOMIC_FFMPEG`, else next to the running program (where
    /// `swift build` and `scripts/install` put it), else on `PATH`; nil when it is nowhere.
    public static let program: String? = {
        let fm = FileManager.default
        if let set = Environment.value("BOOMIC_FFMPEG"), !set.isEmpty { return set }
        if let me = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = (me as NSString).deletingLastPathComponent + "/boomic-ffmpeg"
            if fm.isExecutableFile(atPath: beside) { return beside }
        }
        for folder in (Environment.value("PATH") ?? "").split(separator: ":") {
            let candidate = String(folder) + "/boomic-ffmpeg"
            if fm.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    public init(path: String, program: String? = FFmpegDecoder.program) throws(AudioError) {
        self.path = path
        file = try AudioFile.open(path)
        guard let program else {
            throw AudioError(path: path, reason: "no decoder for .\((path as NSString).pathExtension) files: boomic-ffmpeg (Boomic's FFmpeg decoder) is not installed next to boomic; scripts/install puts it there")
        }
        self.program = program
        reader = try Self.start(program, file)
        let header = try Self.header(of: reader, path: path, warnings: &warnings)
        format = header.isFloat
            ? .float(sampleRate: header.sampleRate, channels: header.channels)
            : PCMFormat(sampleRate: header.sampleRate, channels: header.channels, bitsPerSample: header.bitsPerSample)
        totalFrames = header.totalFrames
        codec = header.codec
    }

    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        let n = try fill(maxFrames)
        let count = n * format.channels
        SampleWords.appendInts(words[taken..<(taken + count)], of: format, to: &out)
        taken += count
        return n
    }

    public func read(into out: inout [Float], maxFrames: Int) throws(AudioError) -> Int {
        let n = try fill(maxFrames)
        let count = n * format.channels
        SampleWords.appendFloats(words[taken..<(taken + count)], of: format, to: &out)
        taken += count
        return n
    }

    /// Starts the program again at `frame`: FFmpeg seeks near it and decodes up to it.
    public func seek(toFrame frame: Int) throws(AudioError) {
        let fresh = try Self.start(program, file, at: max(0, frame))
        let header = try Self.header(of: fresh, path: path, warnings: &warnings)
        guard header.sampleRate == format.sampleRate, header.channels == format.channels else {
            throw AudioError(path: path, reason: "cannot seek: the decoder gave another format (\(header.text))")
        }
        reader = fresh
        words.removeAll(keepingCapacity: true)
        taken = 0
        ended = false
    }

    // MARK: The pipe

    private static func start(_ program: String, _ file: FileDescriptor, at frame: Int = 0) throws(AudioError) -> DecoderPipeReader {
        var arguments = [file.path, "--descriptor", String(DecoderProcess.inputDescriptor)]
        if frame > 0 { arguments += ["--start", String(frame)] }
        do {
            return try DecoderPipeReader(program: program, arguments: arguments, input: file)
        } catch {
            throw AudioError(path: file.path, reason: "cannot start boomic-ffmpeg: \(error.reason)")
        }
    }

    /// Reads up to the header packet: the format, or the program's one line on why it cannot
    /// decode the file.
    private static func header(of reader: DecoderPipeReader, path: String,
                               warnings: inout [String]) throws(AudioError) -> DecoderPipe.Header {
        while true {
            switch try packet(from: reader, path: path) {
            case let .header(text):
                guard let header = DecoderPipe.Header(text: text) else {
                    throw AudioError(path: path, reason: "boomic-ffmpeg sent a header it cannot have meant (\(text))")
                }
                return header
            case let .warning(text): warnings.append(text)
            case let .error(text): throw AudioError(path: path, reason: text)
            case let .cutShort(how): throw AudioError(path: path, reason: "boomic-ffmpeg stopped before decoding anything (\(how))")
            case .samples, .end: throw AudioError(path: path, reason: "boomic-ffmpeg sent samples before saying their format")
            }
        }
    }

    /// Reads packets until `maxFrames` frames are ready or the stream ended; the frames ready.
    private func fill(_ maxFrames: Int) throws(AudioError) -> Int {
        let channels = format.channels
        if taken > 0 && taken >= words.count / 2 {
            words.removeFirst(taken)
            taken = 0
        }
        while (words.count - taken) / channels < maxFrames && !ended {
            switch try Self.packet(from: reader, path: path) {
            case let .samples(bytes):
                let count = bytes.count / 4
                words.reserveCapacity(words.count + count)
                bytes.withUnsafeBytes { raw in
                    for i in 0..<count {
                        words.append(Int32(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))))
                    }
                }
            case let .warning(text): warnings.append(text)
            case let .error(text): throw AudioError(path: path, reason: text)
            case .end: ended = true
            case let .cutShort(how):
                // The decoder crashed or was killed: what came is played.
                warnings.append("boomic-ffmpeg stopped mid-song (\(how)); the rest is not played")
                ended = true
            case .header: break
            }
        }
        return min(maxFrames, (words.count - taken) / channels)
    }

    private static func packet(from reader: DecoderPipeReader, path: String) throws(AudioError) -> DecoderPipeReader.Packet {
        do {
            return try reader.next()
        } catch {
            throw AudioError(path: path, reason: "boomic-ffmpeg: \(error.reason)")
        }
    }
}
