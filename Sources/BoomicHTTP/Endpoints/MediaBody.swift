import BoomicAudio
import Glibc
import Hummingbird
import NIOCore

/// The bodies of media answers, written through Hummingbird's `ResponseBodyWriter`, whose
/// `write` returns only when the connection has taken the chunk: a slow client holds one
/// chunk in memory, not the file, and a client that leaves ends the writing at its next chunk.
enum MediaBody {
    /// Bytes read per chunk of a file.
    static let chunkSize = 64 << 10

    /// The bytes `range` of the open file, each chunk read on NIO's thread pool.
    static func file(_ media: MediaSong, range: ClosedRange<Int>) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let count = min(chunkSize, range.upperBound - offset + 1)
                let at = offset
                let buffer = try await MediaBlocking.run { () throws(MediaReadError) in
                    try read(media, count: count, at: at)
                }
                // A file that shrank while it was sent: the connection ends short of its
                // Content-Length, which the client sees as a broken transfer.
                guard buffer.readableBytes > 0 else { throw MediaReadError(reason: "the file ended early") }
                offset += buffer.readableBytes
                try await writer.write(buffer)
            }
            try await writer.finish(nil)
        }
    }

    /// Up to `count` bytes at `offset`, read straight into a buffer.
    private static func read(_ media: MediaSong, count: Int, at offset: Int) throws(MediaReadError) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        let fd = media.file.rawValue
        var failure: Int32 = 0
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            while true {
                let n = pread(fd, bytes.baseAddress, count, off_t(offset))
                if n >= 0 { return n }
                if errno == EINTR { continue }
                failure = errno
                return 0
            }
        }
        if failure != 0 { throw MediaReadError(reason: String(cString: strerror(failure))) }
        return buffer
    }

    /// A transcode as it is encoded. With `length` (`estimateContentLength`), exactly that many
    /// bytes: the stream cut there, or followed by zeros up to it, which MP3 and Ogg readers
    /// skip as junk between frames or pages. A client that leaves cancels the encoder.
    static func transcode(_ transcode: Transcode, length: Int?) -> ResponseBody {
        ResponseBody(contentLength: length) { writer in
            var sent = 0
            do {
                for try await chunk in transcode {
                    var bytes = chunk[...]
                    if let length { bytes = bytes.prefix(max(0, length - sent)) }
                    if !bytes.isEmpty {
                        try await writer.write(ByteBuffer(bytes: bytes))
                        sent += bytes.count
                    }
                    if let length, sent >= length {
                        // Cut at the length promised: the rest of the encoding is not wanted.
                        transcode.cancel()
                        break
                    }
                }
                if let length, sent < length {
                    let zeros = ByteBuffer(repeating: 0, count: min(chunkSize, length - sent))
                    while sent < length {
                        let part = min(zeros.readableBytes, length - sent)
                        try await writer.write(zeros.getSlice(at: 0, length: part)!)
                        sent += part
                    }
                }
                try await writer.finish(nil)
            } catch {
                transcode.cancel()
                throw error
            }
        }
    }
}

/// A media file that could not be read while it was sent.
struct MediaReadError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "cannot read the song's file: \(reason)" }
}
