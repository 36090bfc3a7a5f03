import BoomicCore
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
/// Not `Sendable`: one decoder belongs to one thread.
public final class FFmpegDecoder: AudioDecoder {
    public let path: String
    public let format: PCMFormat
    public let totalFrames: Int?
    /// FFmpeg's name of the codec (`alac`, `aac`, `wavpack`).
    public let codec: String
    public private(set) var warnings: [String] = []

    private let program: String
    private var process: DecoderProcess
    private var parser = DecoderPipeParser()
    /// Samples received and not yet handed out, as they came (little-endian 32-bit words).
    private var words: [UInt32] = []
    private var taken = 0
    private var ended = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Where `boomic-ffmpeg` is: `$BOOMIC_FFMPEG`, else next to the running program (where
    /// `swift build` and `scripts/install` put it), else on `PATH`; nil when it is nowhere.
    public static let program: String? = {
        let fm = FileManager.default
        if let set = ProcessInfo.processInfo.environment["BOOMIC_FFMPEG"], !set.isEmpty { return set }
        if let me = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = (me as NSString).deletingLastPathComponent + "/boomic-ffmpeg"
            if fm.isExecutableFile(atPath: beside) { return beside }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = String(folder) + "/boomic-ffmpeg"
            if fm.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    public init(path: String, program: String? = FFmpegDecoder.program) throws(AudioError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw AudioError(path: path, reason: "cannot open: No such file or directory")
        }
        guard let program else {
            throw AudioError(path: path, reason: "no decoder for .\((path as NSString).pathExtension) files: boomic-ffmpeg (Boomic's FFmpeg decoder) is not installed next to boomic; scripts/install puts it there")
        }
        self.program = program
        process = try Self.start(program, path)
        let header = try Self.header(of: process, path: path, parser: &parser, warnings: &warnings)
        format = header.isFloat
            ? .float(sampleRate: header.sampleRate, channels: header.channels)
            : PCMFormat(sampleRate: header.sampleRate, channels: header.channels, bitsPerSample: header.bitsPerSample)
        totalFrames = header.totalFrames
        codec = header.codec
    }

    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        let n = try fill(maxFrames)
        let count = n * format.channels
        out.reserveCapacity(out.count + count)
        if format.isFloat {
            for w in words[taken..<(taken + count)] {
                let x = Double(Float(bitPattern: UInt32(littleEndian: w))) * 2_147_483_648
                out.append(Int32(min(max(x.rounded(), -2_147_483_648), 2_147_483_647)))
            }
        } else {
            for w in words[taken..<(taken + count)] { out.append(Int32(bitPattern: UInt32(littleEndian: w))) }
        }
        taken += count
        return n
    }

    public func read(into out: inout [Float], maxFrames: Int) throws(AudioError) -> Int {
        let n = try fill(maxFrames)
        let count = n * format.channels
        out.reserveCapacity(out.count + count)
        if format.isFloat {
            for w in words[taken..<(taken + count)] { out.append(Float(bitPattern: UInt32(littleEndian: w))) }
        } else {
            let scale = 1 / Float(Int64(1) << (format.bitsPerSample - 1))
            for w in words[taken..<(taken + count)] { out.append(Float(Int32(bitPattern: UInt32(littleEndian: w))) * scale) }
        }
        taken += count
        return n
    }

    /// Starts the program again at `frame`: FFmpeg seeks near it and decodes up to it.
    public func seek(toFrame frame: Int) throws(AudioError) {
        let fresh = try Self.start(program, path, at: max(0, frame))
        var freshParser = DecoderPipeParser()
        let header = try Self.header(of: fresh, path: path, parser: &freshParser, warnings: &warnings)
        guard header.sampleRate == format.sampleRate, header.channels == format.channels else {
            throw AudioError(path: path, reason: "cannot seek: the decoder gave another format (\(header.text))")
        }
        process = fresh
        parser = freshParser
        words.removeAll(keepingCapacity: true)
        taken = 0
        ended = false
    }

    // MARK: The pipe

    private static func start(_ program: String, _ path: String, at frame: Int = 0) throws(AudioError) -> DecoderProcess {
        do {
            return try DecoderProcess(program: program, arguments: frame > 0 ? [path, "--start", String(frame)] : [path])
        } catch {
            throw AudioError(path: path, reason: "cannot start boomic-ffmpeg: \(error.reason)")
        }
    }

    /// Reads up to the header packet: the format, or the program's one line on why it cannot
    /// decode the file.
    private static func header(of process: DecoderProcess, path: String, parser: inout DecoderPipeParser,
                               warnings: inout [String]) throws(AudioError) -> DecoderPipe.Header {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            var result: Result<DecoderPipe.Header, AudioError>?
            do {
                while result == nil, let r = try parser.next({ kind, payload -> Result<DecoderPipe.Header, AudioError>? in
                    let text = String(decoding: payload, as: UTF8.self)
                    switch kind {
                    case .header:
                        guard let header = DecoderPipe.Header(text: text) else {
                            return .failure(AudioError(path: path, reason: "boomic-ffmpeg sent a header it cannot have meant (\(text))"))
                        }
                        return .success(header)
                    case .error: return .failure(AudioError(path: path, reason: text))
                    case .warning:
                        warnings.append(text)
                        return nil
                    case .samples, .end:
                        return .failure(AudioError(path: path, reason: "boomic-ffmpeg sent samples before saying their format"))
                    }
                }) {
                    result = r
                }
            } catch {
                throw AudioError(path: path, reason: "boomic-ffmpeg's output is garbled (\(error))")
            }
            if let result { return try result.get() }
            let n = try process.read(into: &chunk)
            guard n > 0 else {
                throw AudioError(path: path, reason: "boomic-ffmpeg stopped before decoding anything (\(process.ending()))")
            }
            parser.feed(chunk[0..<n])
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
            if try !nextPacket() {
                let n = try process.read(into: &chunk)
                if n == 0 {
                    if !ended {
                        // Cut short: the decoder crashed or was killed. What came is played.
                        warnings.append("boomic-ffmpeg stopped mid-song (\(process.ending())); the rest is not played")
                        ended = true
                    }
                    break
                }
                parser.feed(chunk[0..<n])
            }
        }
        return min(maxFrames, (words.count - taken) / channels)
    }

    /// Takes one whole packet from what was read; false when none is whole yet.
    private func nextPacket() throws(AudioError) -> Bool {
        do {
            let got: Bool? = try parser.next { kind, payload throws(AudioError) -> Bool in
                switch kind {
                case .samples:
                    let count = payload.count / 4
                    words.reserveCapacity(words.count + count)
                    UnsafeRawBufferPointer(payload).withMemoryRebound(to: UInt8.self) { bytes in
                        for i in 0..<count { words.append(UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
                    }
                case .warning: warnings.append(String(decoding: payload, as: UTF8.self))
                case .error: throw AudioError(path: path, reason: String(decoding: payload, as: UTF8.self))
                case .end: ended = true
                case .header: break
                }
                return true
            }
            return got ?? false
        } catch let error as AudioError {
            throw error
        } catch {
            throw AudioError(path: path, reason: "boomic-ffmpeg's output is garbled (\(error))")
        }
    }
}
