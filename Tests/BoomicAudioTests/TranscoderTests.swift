import BoomicAudio
import BoomicCore
import BoomicTestSupport
import Foundation
import Synchronization
import Testing

/// Transcodes for HTTP clients (`Transcoder`, `boomic-ffmpeg encode`): a song decoded by
/// Boomic's own decoders comes out as Ogg Opus or MP3 of the song's length, a CUE track as its
/// own audio, an offset as the rest of the song, and a reader that goes away ends the encoder
/// cleanly without the decoder having run ahead.
///
/// The length tolerances are the codecs': an Ogg Opus stream says its encoder delay (pre-skip)
/// and its end (the last page's granule position), so it decodes to the length exactly up to
/// the resampler's rounding from 44.1 to 48 kHz (allowed: 1 ms). A streamed MP3 cannot carry
/// LAME's gapless header (it is written by seeking back at the end), so its decoder plays
/// LAME's delay (576 + 529 samples) and the last frame's padding: at least the length, at most
/// two MP3 frames (2 × 1152 samples) more.
@Suite struct TranscoderTests {
    let dir = TempDir("boomic-transcode")

    /// A stereo FLAC of `seconds` at 44.1 kHz.
    func flac(_ seconds: Int, name: String = "song.flac") throws -> String {
        let path = dir.file(name)
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", path,
                        "synth", String(seconds), "sine", "300-3000", "sine", "441", "gain", "-3"])
        return path
    }

    /// Every byte of the stream, written to a file named for its format.
    func collect(_ transcode: Transcode, as name: String) async throws -> String {
        var bytes: [UInt8] = []
        for try await chunk in transcode { bytes += chunk }
        let path = dir.file(name + "." + transcode.request.format.suffix)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The frames Boomic's own decoder for the file's suffix gives, and its format.
    func decodedFrames(_ path: String) throws -> (frames: Int, format: PCMFormat) {
        let decoder = try Decoders.open(path)
        var frames = 0
        var block: [Int32] = []
        while true {
            block.removeAll(keepingCapacity: true)
            let n = try decoder.read(into: &block, maxFrames: 8192)
            if n == 0 { break }
            frames += n
        }
        return (frames, decoder.format)
    }

    /// Checks a decoded length against `seconds` of music within the codec's tolerance.
    func expectLength(_ path: String, _ format: TranscodeFormat, seconds: Double, sourceFrames: Int,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (frames, pcm) = try decodedFrames(path)
        #expect(pcm.channels == 2, sourceLocation: sourceLocation)
        switch format {
        case .opus:
            #expect(pcm.sampleRate == 48_000, sourceLocation: sourceLocation)
            let expected = Int((seconds * 48_000).rounded())
            #expect(abs(frames - expected) <= 48, "\(frames) frames decoded, \(expected) expected", sourceLocation: sourceLocation)
        case .mp3:
            #expect(pcm.sampleRate == 44_100, sourceLocation: sourceLocation)
            #expect(frames >= sourceFrames && frames <= sourceFrames + 2 * 1152,
                    "\(frames) frames decoded, \(sourceFrames) in the source", sourceLocation: sourceLocation)
        }
    }

    /// The length within the codec's tolerance, the bit rate within 10 % of the one asked.
    @Test(arguments: TranscodeFormat.allCases)
    func aFLACTranscodesToItsLength(_ format: TranscodeFormat) async throws {
        let song = try flac(10)
        let transcode = try await Transcoder.start(TranscodeRequest(path: song, format: format))
        #expect(transcode.duration == 10)
        #expect(transcode.mimeType == (format == .opus ? "audio/ogg" : "audio/mpeg"))
        let file = try await collect(transcode, as: "whole")
        try expectLength(file, format, seconds: 10, sourceFrames: 441_000)
        // The rate asked for is what the stream averages (a client's maxBitRate), within 10 %
        // for the container and the codec's own swing.
        let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
        let kbps = transcode.request.kbps
        #expect(Double(size) <= 10 * Double(kbps) * 1000 / 8 * 1.1, "\(size * 8 / 10_000) kbit/s for \(kbps) asked")
    }

    /// Track 2 of a CUE image is its own 1.93 s, not the image's 6 s.
    @Test(arguments: TranscodeFormat.allCases)
    func aCueTrackTranscodesToItsOwnLength(_ format: TranscodeFormat) async throws {
        let image = try CueImage.make(in: dir.path)
        let start = CueImage.starts[1], end = CueImage.starts[2]
        let range = PlayRange(start: Double(start) / 44_100, end: Double(end) / 44_100)
        let transcode = try await Transcoder.start(TranscodeRequest(path: image, range: range, format: format))
        let file = try await collect(transcode, as: "track2")
        try expectLength(file, format, seconds: Double(end - start) / 44_100, sourceFrames: end - start)
    }

    /// `timeOffset`: 4 s into a 10 s song leaves 6 s; inside a CUE track, the offset counts from
    /// the track's start.
    @Test(arguments: TranscodeFormat.allCases)
    func anOffsetShortensIt(_ format: TranscodeFormat) async throws {
        let song = try flac(10)
        let transcode = try await Transcoder.start(TranscodeRequest(path: song, offset: 4, format: format))
        #expect(transcode.duration == 6)
        try expectLength(try await collect(transcode, as: "offset"), format, seconds: 6, sourceFrames: 6 * 44_100)

        let image = try CueImage.make(in: dir.path)
        let start = CueImage.starts[1], end = CueImage.starts[2]
        let range = PlayRange(start: Double(start) / 44_100, end: Double(end) / 44_100)
        let inTrack = try await Transcoder.start(TranscodeRequest(path: image, range: range, offset: 1, format: format))
        try expectLength(try await collect(inTrack, as: "track-offset"), format,
                         seconds: Double(end - start - 44_100) / 44_100, sourceFrames: end - start - 44_100)
    }

    /// The client goes away after the first chunk: the transcode is dropped, the encoder's next
    /// write fails and it exits 0 (nothing on its standard error), and the decoder stopped long
    /// before the song's end (the full pipes held it back).
    @Test func aReaderThatGoesAwayEndsTheEncoderCleanly() async throws {
        let song = try flac(20)
        let ended = Mutex<TranscodeEnding?>(nil)
        do {
            let transcode = try await Transcoder.start(TranscodeRequest(path: song, format: .opus)) { ending in
                ended.withLock { $0 = ending }
            }
            var chunks = transcode.makeAsyncIterator()
            let first = try await chunks.next()
            #expect(first?.isEmpty == false)
        }
        try await waitUntil("the encoder and the decoding thread end") { ended.withLock { $0 != nil } }
        let ending = try #require(ended.withLock { $0 })
        #expect(ending.encoder == "exit 0")
        #expect(ending.error == nil)
        #expect(ending.decodedSeconds < 12, "the decoder ran ahead of the reader: \(ending.decodedSeconds) s decoded")
    }

    /// Back pressure: a reader that takes one chunk and then nothing leaves the decoder waiting
    /// a few seconds into a 40 s song (the pipes hold about 4 s of Opus and 0.2 s of PCM), not
    /// at its end; the rest then comes when asked for.
    @Test func aSlowReaderHoldsTheDecoderBack() async throws {
        let song = try flac(40)
        let transcode = try await Transcoder.start(TranscodeRequest(path: song, format: .opus))
        var chunks = transcode.makeAsyncIterator()
        var bytes = try await chunks.next()?.count ?? 0
        var last = -1.0
        try await waitUntil("the decoder waits for the reader", every: .milliseconds(300)) {
            let now = transcode.decodedSeconds
            defer { last = now }
            return now > 0 && now == last
        }
        #expect(transcode.decodedSeconds < 12, "\(transcode.decodedSeconds) s decoded ahead of a reader that took \(bytes) bytes")
        #expect(transcode.ending == nil)
        while let chunk = try await chunks.next() { bytes += chunk.count }
        #expect(transcode.decodedSeconds == 40)
    }

    /// `boomic-ffmpeg encode` itself, its reader a process that stops reading and exits after
    /// 4 KiB (`head`): the encoder ends with status 0 and says nothing.
    @Test func theEncoderExitsZeroWhenItsReaderExits() throws {
        let program = try #require(FFmpegDecoder.program, "boomic-ffmpeg is built with the tests")
        let raw = dir.file("song.f32")
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-c", "2", "-t", "f32", raw, "synth", "20", "sine", "441"])
        let out = try toolOutput(["bash", "-c", """
            "$0" encode --format mp3 --bitrate 192 --rate 44100 --channels 2 < "$1" 2> "$1.err" | head -c 4096 > /dev/null
            echo "${PIPESTATUS[0]}"; cat "$1.err"
            """, program, raw])
        #expect(String(decoding: out, as: UTF8.self) == "0\n")
    }

    /// `cancel()` ends a transcode at once; the stream ends after what was already encoded.
    @Test func cancelEndsTheStream() async throws {
        let song = try flac(20)
        let transcode = try await Transcoder.start(TranscodeRequest(path: song, format: .mp3))
        var chunks = transcode.makeAsyncIterator()
        _ = try await chunks.next()
        transcode.cancel()
        var more = 0
        while let chunk = try await chunks.next() { more += chunk.count }
        #expect(more < 1 << 20)
        try await waitUntil("the transcode ends") { transcode.ending != nil }
        #expect(transcode.ending == "signal 9")
    }

    /// The HTTP handler's task cancelled (the server shutting down): the iteration ends with
    /// `CancellationError`, and the dropped transcode's encoder exits 0.
    @Test func aCancelledTaskEndsTheIteration() async throws {
        let song = try flac(20)
        let ended = Mutex<TranscodeEnding?>(nil)
        let transcode = try await Transcoder.start(TranscodeRequest(path: song, format: .opus)) { ending in
            ended.withLock { $0 = ending }
        }
        let reader = Task {
            var bytes = 0
            for try await chunk in transcode {
                bytes += chunk.count
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return bytes
        }
        await #expect(throws: CancellationError.self) { _ = try await reader.value }
        _ = consume transcode
        try await waitUntil("the encoder ends") { ended.withLock { $0 != nil } }
        #expect(ended.withLock { $0?.encoder } == "exit 0")
    }

    @Test func aFileThatCannotBeDecodedFailsBeforeAnyByte() async throws {
        let path = dir.file("broken.flac")
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: AudioError.self) { _ = try await Transcoder.start(TranscodeRequest(path: path, format: .opus)) }
        let missing = await #expect(throws: AudioError.self) {
            _ = try await Transcoder.start(TranscodeRequest(path: path, format: .opus), program: nil)
        }
        #expect(missing?.reason.contains("boomic-ffmpeg") == true)
    }
}
