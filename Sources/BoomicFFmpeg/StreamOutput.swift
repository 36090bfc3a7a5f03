import CFFmpeg
import Glibc

/// Standard output as libavformat's output: a custom I/O context that writes every buffer it
/// is given to descriptor 1 at once and cannot seek, so a muxer writes its stream front to back
/// and the bytes leave as each packet is muxed (an HTTP client hears them as they come).
///
/// The reader going away (EPIPE: the HTTP client left, the server dropped the transcode) ends the
/// program quietly with status 0: that is how a transcode is stopped.
final class StreamOutput {
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    private static let bufferSize: Int32 = 1 << 14

    init() throws(InputError) {
        guard let buffer = av_malloc(Int(Self.bufferSize)) else { throw InputError(reason: "out of memory") }
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 1, nil, nil, { _, bytes, size in
            guard let bytes else { return 0 }
            StreamOutput.writeAll(UnsafeRawPointer(bytes), Int(size))
            return size
        }, nil)
        guard let context else {
            av_free(buffer)
            throw InputError(reason: "out of memory")
        }
        context.pointee.seekable = 0
    }

    deinit {
        if let context { av_freep(&context.pointee.buffer) }
        avio_context_free(&context)
    }

    /// Writes `count` bytes to standard output, waiting for the reader; exits on EPIPE.
    static func writeAll(_ bytes: UnsafeRawPointer, _ count: Int) {
        var done = 0
        while done < count {
            let n = write(1, bytes + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { exit(0) }
            done += n
        }
    }
}
