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
final class LineFramer: ByteToMessageDecoder {
    typealias InboundOut = RequestLine
    let limit: Int
    private var skipping = false

    init(limit: Int) { self.limit = limit }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > limit {
                // Drop what came so far; say so once, then skip to the line's end.
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                if !skipping {
                    skipping = true
                    context.fireChannelRead(wrapInboundOut(.tooLong))
                }
            }
            return .needMoreData
        }
        let length = newline - view.startIndex
        if skipping || length > limit {
            buffer.moveReaderIndex(forwardBy: length + 1)
            if skipping {
                skipping = false
            } else {
                context.fireChannelRead(wrapInboundOut(.tooLong))
            }
            return .continue
        }
        // Straight from the buffer's bytes: no array per line.
        let text = buffer.withUnsafeReadableBytes { raw -> String? in
            var line = UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length)
            if length > 0, line[length - 1] == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
            return String(validating: line, as: UTF8.self)
        }
        buffer.moveReaderIndex(forwardBy: length + 1)
        context.fireChannelRead(wrapInboundOut(text.map { .line($0) } ?? .badText))
        return .continue
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A last line without its newline is no request (MPD waits for the newline too).
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}
