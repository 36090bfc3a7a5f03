import Foundation
import NIOCore

/// What one request line is, as the framer hands it on.
enum RequestLine {
    case line(String)
    /// Longer than the limit: answered with an ACK, and the rest of it skipped.
    case tooLong
    /// Not UTF-8: answered with an ACK.
    case badText
}

/// Splits the byte stream into lines (`\n`, a `\r` before it dropped) of at most `limit`
/// bytes, so a client cannot make the server hold an unbounded line.
///
/// A value the connection keeps and feeds each read to: the read's buffer is let go at once (so
/// the socket reuses it for the next read) unless it ends inside a line.
struct LineFramer {
    let limit: Int
    /// The start of a line that has not ended yet.
    private var partial = ByteBuffer()
    /// Inside a line already reported too long: skip to its end.
    private var skipping = false

    init(limit: Int) { self.limit = limit }

    /// No line begun and none being skipped: the next read starts a line.
    var isBetweenLines: Bool { partial.readableBytes == 0 && !skipping }

    /// Bytes before the first newline; nil when there is none yet.
    private static func lineLength(in buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { raw in
            guard let base = raw.baseAddress, let hit = memchr(base, 0x0A, raw.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }

    /// Adds the lines `read` completes to `lines`. A last line without its newline waits for
    /// the next read (and is no request if the connection ends first, as in MPD).
    mutating func take(_ read: ByteBuffer, into lines: inout [RequestLine]) {
        var buffer: ByteBuffer
        if partial.readableBytes > 0 {
            partial.writeImmutableBuffer(read)
            buffer = partial
            partial = ByteBuffer()
        } else {
            buffer = read
        }
        while let length = Self.lineLength(in: buffer) {
            if skipping || length > limit {
                buffer.moveReaderIndex(forwardBy: length + 1)
                if skipping { skipping = false } else { lines.append(.tooLong) }
                continue
            }
            // Straight from the buffer's bytes: no array per line.
            let text = buffer.withUnsafeReadableBytes { raw -> String? in
                var line = UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length)
                if length > 0, line[length - 1] == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
                return String(validating: line, as: UTF8.self)
            }
            buffer.moveReaderIndex(forwardBy: length + 1)
            lines.append(text.map { .line($0) } ?? .badText)
        }
        guard buffer.readableBytes > 0 else { return }
        if buffer.readableBytes > limit {
            // Drop what came so far; say so once, then skip to the line's end.
            if !skipping {
                skipping = true
                lines.append(.tooLong)
            }
        } else if !skipping {
            partial.writeImmutableBuffer(buffer)
        }
    }
}
