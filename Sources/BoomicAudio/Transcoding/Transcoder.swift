import Foundation

/// Transcodes a song for a client (OpenSubsonic's `stream` with `format` or `maxBitRate`):
/// Boomic's own decoders read the song, as the player does (the same decoder for each format,
/// a CUE track's or a chapter's range bounding it, a start inside it), and `boomic-ffmpeg
/// encode` makes Ogg Opus or MP3 of it, handed out as it is encoded (`Transcode`).
///
/// Decoding runs on a thread of its own that writes 32-bit float PCM into the encoder's
/// standard input; the encoder's output waits in its pipe until the caller takes it. A slow
/// client fills that pipe, the encoder then waits, and so does the decoder behind it: a
/// transcode holds a few hundred kilobytes at most (two pipe buffers and a block of samples),
/// however long the song.
public enum Transcoder {
    /// Opens the song's decoder (its header is read here, so a file that cannot be decoded is
    /// an error before any byte is sent), seeks to the start asked for, and starts the encoder.
    /// - Parameter onEnd: called once on the decoding thread when the encoder has ended and
    ///   the decoding stopped (the stream done, the client gone, or a failure): for a log line
    ///   or a listener's entry in now playing.
    public static func start(_ request: TranscodeRequest,
                             program: String? = FFmpegDecoder.program,
                             onEnd: (@Sendable (TranscodeEnding) -> Void)? = nil) async throws(AudioError) -> Transcode {
        guard let program else {
            throw AudioError(path: request.path, reason: "cannot transcode: boomic-ffmpeg (Boomic's FFmpeg program) is not installed next to boomic; scripts/install puts it there")
        }
        let opened: Result<Transcode, AudioError> = await withCheckedContinuation { continuation in
            PipeThread.run {
                switch Result(catching: { () throws(AudioError) in try Feeder(request, program: program) }) {
                case let .failure(error):
                    continuation.resume(returning: .failure(error))
                case let .success(feeder):
                    // The transcode is made and handed over here, and held by its reader
                    // alone: dropping it is how the reader says it has gone.
                    continuation.resume(returning: .success(feeder.makeTranscode()))
                    let ending = feeder.run()
                    onEnd?(ending)
                }
            }
        }
        return try opened.get()
    }

    /// Samples decoded per write into the encoder: about 0.1 s.
    static let blockFrames = 4096

    /// The decoding side of one transcode, on its thread: decoder to the encoder's input.
    /// Not `Sendable`: it lives and ends on that thread.
    private final class Feeder {
        let decoder: any AudioDecoder
        let process: FilterProcess
        let status = TranscodeStatus()
        let request: TranscodeRequest
        let duration: Double?
        var position: Int
        let first: Int
        let end: Int?

        init(_ request: TranscodeRequest, program: String) throws(AudioError) {
            decoder = try Decoders.open(request.path)
            let format = decoder.format
            let (first, last) = request.frames(rate: format.sampleRate)
            end = last
            if first > 0 { try decoder.seek(toFrame: first) }
            position = first
            self.first = first
            process = try FilterProcess(program: program, arguments: [
                "encode", "--format", request.format.rawValue, "--bitrate", String(request.kbps(channels: format.channels)),
                "--rate", String(format.sampleRate), "--channels", String(format.channels),
            ])
            self.request = request
            duration = (last ?? decoder.totalFrames).map { Double(max(0, $0 - first)) / Double(format.sampleRate) }
        }

        func makeTranscode() -> Transcode {
            Transcode(request: request, duration: duration, process: process, status: status)
        }

        func run() -> TranscodeEnding {
            var samples: [Float] = []
            samples.reserveCapacity(Transcoder.blockFrames * decoder.format.channels)
            while true {
                let wanted = end.map { min(Transcoder.blockFrames, $0 - position) } ?? Transcoder.blockFrames
                guard wanted > 0 else { break }
                samples.removeAll(keepingCapacity: true)
                let n: Int
                do {
                    n = try decoder.read(into: &samples, maxFrames: wanted)
                } catch {
                    status.failed(error)
                    break
                }
                guard n > 0 else { break }
                position += n
                status.decoded(Double(position - first) / Double(decoder.format.sampleRate))
                // Host-order floats: little-endian on every machine Boomic runs on, as
                // `encode` reads them. The encoder gone (its reader left, or it failed): nothing more to do.
                let written = samples.withUnsafeBytes { PipeThread.writeAll(process.input, $0) }
                guard written else { break }
            }
            process.closeInput()
            let how = process.waitForExit()
            status.ended(how)
            let rate = Double(decoder.format.sampleRate)
            return TranscodeEnding(encoder: how, decodedSeconds: Double(position - first) / rate, error: status.error)
        }
    }
}
