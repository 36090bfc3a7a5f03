import BoomicAudio
import BoomicTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// Every decoder opens its file as a regular file without waiting (`FileDescriptor.openRegular`):
/// a FIFO named like a song, which an open by path waits on for a writer for ever (the decode
/// thread, and a server's room with it), fails at once with the ordinary open error, so the
/// player skips it as it skips a broken file.
@Suite struct DecoderFIFOTests {
    /// Each decoder by the name of the file it is given, and through `Decoders.open` (which for
    /// `.wav` and `.wv` would go on to FFmpeg after its own decoder refused).
    static let openers: [(name: String, open: @Sendable (String) throws(AudioError) -> any AudioDecoder)] = [
        ("x.flac", { (p) throws(AudioError) in try FLACDecoder(path: p) }),
        ("x.mp3", { (p) throws(AudioError) in try MP3Decoder(path: p) }),
        ("x.ogg", { (p) throws(AudioError) in try VorbisDecoder(path: p) }),
        ("x.opus", { (p) throws(AudioError) in try OpusDecoder(path: p) }),
        ("x.wv", { (p) throws(AudioError) in try WavPackDecoder(path: p) }),
        ("x.wav", { (p) throws(AudioError) in try PCMFileDecoder(path: p) }),
        ("x.m4a", { (p) throws(AudioError) in try FFmpegDecoder(path: p) }),
        ("y.flac", { (p) throws(AudioError) in try Decoders.open(p) }),
        ("y.ogg", { (p) throws(AudioError) in try Decoders.open(p) }),
        ("y.wv", { (p) throws(AudioError) in try Decoders.open(p) }),
        ("y.wav", { (p) throws(AudioError) in try Decoders.open(p) }),
        ("y.m4a", { (p) throws(AudioError) in try Decoders.open(p) }),
    ]

    @Test(arguments: openers.indices)
    func aFIFONamedLikeASongFailsAtOnce(_ index: Int) throws {
        let (name, open) = Self.openers[index]
        let dir = TempDir("boomic-fifo")
        let path = dir.file(name)
        try #require(mkfifo(path, 0o600) == 0)
        let outcome = try Self.withDeadline(seconds: 10, unblocking: path) { () throws(AudioError) in _ = try open(path) }
        guard let outcome else {
            Issue.record("\(name): the decoder's open did not return within 10 s (it waits on the FIFO)")
            return
        }
        switch outcome {
        case .success: Issue.record("\(name): a FIFO opened as a song")
        case let .failure(error):
            #expect(error.cause?.refusal == .notRegularFile, "\(name): \(error)")
            #expect(error.description == "\(path): cannot open: it is not a regular file (a FIFO, a device, a socket or a folder)")
        }
    }

    /// A missing file is still the ordinary one-line error, for every decoder.
    @Test(arguments: openers.indices)
    func aMissingFileIsTheOrdinaryOpenError(_ index: Int) throws {
        let (name, open) = Self.openers[index]
        let path = "/nonexistent/" + name
        let error = try #require(throws: AudioError.self) { try open(path) }
        #expect(error.description == "\(path): cannot open: No such file or directory")
        #expect(error.cause?.isNotFound == true)
    }

    /// `boomic-ffmpeg` run by hand with a FIFO's path (no descriptor from the player) refuses it
    /// by the same rule, in its one error line, instead of waiting in FFmpeg's open.
    @Test func boomicFFmpegGivenAFIFOsPathRefusesIt() throws {
        let program = try #require(FFmpegDecoder.program, "boomic-ffmpeg is built with the tests")
        let dir = TempDir("boomic-fifo")
        let path = dir.file("x.m4a")
        try #require(mkfifo(path, 0o600) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        guard done.wait(timeout: .now() + 10) == .success else {
            let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { Glibc.close(writer) }
            process.terminate()
            Issue.record("boomic-ffmpeg did not end within 10 s (it waits on the FIFO)")
            return
        }
        // The one packet is far smaller than a pipe's buffer: it is all there once the program ended.
        let sent = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(sent.contains("cannot open: it is not a regular file"), "\(sent)")
    }

    /// Runs `body` on a thread of its own and waits for it up to `seconds`: its result, or nil
    /// when it did not return in time, in which case the FIFO at `path` is opened for writing,
    /// which lets a reader waiting in `open` go on (to fail on the empty stream), so the thread
    /// does not outlive the test for ever.
    static func withDeadline(seconds: Double, unblocking path: String,
                             _ body: @escaping @Sendable () throws(AudioError) -> Void) throws -> Result<Void, AudioError>? {
        let result = Mutex<Result<Void, AudioError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let r = Result { () throws(AudioError) in try body() }
            result.withLock { $0 = r }
            done.signal()
        }
        thread.start()
        if done.wait(timeout: .now() + seconds) == .success { return result.withLock { $0 } }
        let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 {
            Glibc.close(writer)
            _ = done.wait(timeout: .now() + seconds)
        }
        return nil
    }
}
