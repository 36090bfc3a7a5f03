// A dispatch source is thread-safe (its `cancel()` may be called from any thread, as the
// cancellation handler below does); Dispatch's types are not yet marked `Sendable`.
@preconcurrency import Dispatch
import Foundation
import Glibc
import Synchronization

/// A running transcode (`Transcoder.start`): the encoded stream as byte chunks, in order, as
/// the encoder makes them. An HTTP handler forwards each chunk before it asks for the next, so
/// the client's pace sets the encoder's.
///
/// Iterate it once. A chunk is at most 64 KiB, whatever the encoder had ready. The sequence
/// ends after the encoder's last byte; it throws when the song could not be decoded to its end
/// or the encoder failed (one line, after what was already sent), and `CancellationError`
/// when the iterating task is cancelled.
///
/// Dropping it (the client went away) closes the encoder's output: the encoder ends at its
/// next write (EPIPE, exit status 0) and the decoding thread at its next write after that.
/// `cancel()` ends the encoder at once instead.
public final class Transcode: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    public let request: TranscodeRequest
    /// The stream's length in seconds (from the start asked for to the song's end), when the
    /// decoder knows the file's length or the range ends it.
    public let duration: Double?
    private let process: FilterProcess
    private let status: TranscodeStatus
    /// `finished`: the output has ended (so the error is thrown once); `cancelled`: `cancel()`
    /// ended the encoder, so its signal is no failure.
    private let state = Mutex((finished: false, cancelled: false))

    private static let readiness = DispatchQueue(label: "boomic.transcode.readiness")
    private static let chunkSize = 1 << 16

    init(request: TranscodeRequest, duration: Double?, process: FilterProcess, status: TranscodeStatus) {
        self.request = request
        self.duration = duration
        self.process = process
        self.status = status
        let flags = fcntl(process.output, F_GETFL)
        _ = fcntl(process.output, F_SETFL, flags | O_NONBLOCK)
    }

    deinit { process.closeOutput() }

    /// The HTTP `Content-Type` of the stream.
    public var mimeType: String { request.format.mimeType }

    /// How the encoder ended ("exit 0", "signal 9"), once it has and its decoding thread too;
    /// nil while either runs.
    public var ending: String? { status.ending }

    /// Seconds of the song decoded so far (from the start asked for): how far the decoder is
    /// ahead of what the reader took shows the back pressure.
    public var decodedSeconds: Double { status.decodedSeconds }

    /// Ends the encoder now (SIGKILL); the sequence then ends after what was already encoded.
    public func cancel() {
        state.withLock { $0.cancelled = true }
        process.terminate()
    }

    public func makeAsyncIterator() -> Iterator { Iterator(transcode: self) }

    public struct Iterator: AsyncIteratorProtocol {
        let transcode: Transcode

        public mutating func next() async throws -> [UInt8]? {
            try await transcode.nextChunk()
        }
    }

    private func nextChunk() async throws -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            try Task.checkCancellation()
            if state.withLock({ $0.finished }) { return nil }
            let n = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
            if n > 0 {
                chunk.removeLast(chunk.count - n)
                return chunk
            }
            if n == 0 {
                state.withLock { $0.finished = true }
                return try endOfOutput()
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: await waitUntilReadable()
            default: throw AudioError(path: request.path, reason: "cannot read the encoder's output (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// The output ended: the decoding error, the encoder's own line, or how it died, if any.
    /// (The encoder closes its output only as it exits, so the wait for it is short.)
    private func endOfOutput() throws -> [UInt8]? {
        let text = process.errorText()
        if let error = status.error { throw error }
        if let line = text.split(separator: "\n").first {
            throw AudioError(path: request.path, reason: String(line))
        }
        let how = process.waitForExit()
        if how != "exit 0" && !state.withLock({ $0.cancelled }) {
            throw AudioError(path: request.path, reason: "boomic-ffmpeg stopped mid-stream (\(how))")
        }
        return nil
    }

    /// Waits until the encoder's output has bytes or has ended, or the task is cancelled. The
    /// source is fully cancelled when this returns (its cancel handler resumes), so it never
    /// watches a descriptor after it is closed.
    private func waitUntilReadable() async {
        let source = DispatchSource.makeReadSource(fileDescriptor: process.output, queue: Self.readiness)
        let wake = Wake()
        source.setEventHandler { source.cancel() }
        source.setCancelHandler { wake.fire() }
        source.activate()
        await withTaskCancellationHandler {
            await withCheckedContinuation { wake.install($0) }
        } onCancel: {
            source.cancel()
        }
    }

    /// A continuation resumed once, whether it is installed before or after it fires.
    private final class Wake: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, fired: Bool)>((nil, false))

        func install(_ continuation: CheckedContinuation<Void, Never>) {
            let fired = state.withLock { s in
                if !s.fired { s.continuation = continuation }
                return s.fired
            }
            if fired { continuation.resume() }
        }

        func fire() {
            let waiting = state.withLock { s in
                s.fired = true
                defer { s.continuation = nil }
                return s.continuation
            }
            waiting?.resume()
        }
    }
}
