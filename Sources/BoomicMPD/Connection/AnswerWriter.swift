import NIOCore

/// Writes one connection's answers to its channel, through NIO's write path only: short ones
/// gathered into one buffer and written once per read, big ones (`listallinfo`) handed over as
/// they are, under the limit of what all connections hold unsent (`UnsentAnswers`), and long
/// ones made as the client reads them (`MPDResponse.rest`), a slice at a time while the channel
/// is writable. Runs on the connection's event loop.
final class AnswerWriter {
    /// Answers not yet handed to NIO: gathered here and written as one buffer at the end of the
    /// read; past `outLimit` they are handed over at once, so NIO's count of unsent bytes (and
    /// the back-pressure on a client that does not read) stays right. Cleared after the flush,
    /// when NIO has let go of it, so one buffer serves a connection's requests.
    private var out = ByteBuffer()
    static let outLimit = 64 * 1024
    /// Bytes were handed to NIO and not flushed since: `flush` goes down the pipeline only then.
    private(set) var unflushed = false
    /// A long answer being made as the client reads it, and what ends it (`OK`, `list_OK`):
    /// nothing else is answered until it has ended.
    private var streaming: Streaming?
    /// In `pump`: a client taking its answers meanwhile (a flush there can tell at once) is seen
    /// by `pump` itself, not by a second `pump` inside the first.
    private(set) var pumping = false
    private let unsent: UnsentAnswers

    init(unsent: UnsentAnswers) { self.unsent = unsent }

    /// A long answer is being made: nothing after it is answered until it has ended.
    var isStreaming: Bool { streaming != nil }
    /// Nothing gathered, unflushed or being made.
    var isEmpty: Bool { out.readableBytes == 0 && !unflushed && streaming == nil }

    /// Gathered, not yet written: the end of the read writes and flushes.
    func write(_ text: String) {
        out.writeString(text)
    }

    /// Gathered as it is (a kept `status` answer).
    func write(_ bytes: ByteBuffer) {
        out.writeImmutableBuffer(bytes)
    }

    /// The response, then `ending`; a big one goes to NIO as it is, not copied, if the answers
    /// waiting for all clients leave room for it: false, and nothing written, when they do not.
    func write(_ response: MPDResponse, ending: String, _ context: ChannelHandlerContext) -> Bool {
        if let rest = response.rest {
            out.writeImmutableBuffer(response.bytes)
            streaming = Streaming(rest: rest, ending: ending)
            pump(context)
            return true
        }
        let count = response.bytes.readableBytes
        if count >= Self.outLimit {
            let unsent = unsent
            guard unsent.take(count) else { return false }
            handOver(context)
            // Completed when NIO has written the bytes, or failed when the connection closes
            // first: the room comes back either way.
            let sent = context.eventLoop.makePromise(of: Void.self)
            sent.futureResult.whenComplete { _ in unsent.give(count) }
            context.write(NIOAny(response.bytes), promise: sent)
            unflushed = true
        } else {
            out.writeImmutableBuffer(response.bytes)
        }
        out.writeString(ending)
        return true
    }

    /// What a long answer refused for want of room says: MPD's "system" error.
    func noRoom(_ command: String, index: Int) -> String {
        let held = unsent.bytes
        let size = held >= 1 << 20 ? "\(held >> 20) MB" : "\(held >> 10) kB"
        return MPDError(.system, "the server holds \(size) of answers that clients have not read yet; try again",
                        command: command, index: index).line + "\n"
    }

    /// Goes on with the answer being made while the client takes it: a slice at a time is
    /// handed to NIO until its count of unsent bytes passes the high water mark; the client's
    /// reading it down to the low one (`channelWritabilityChanged`) calls this again. True once
    /// the answer has ended and its ending is written (or none was being made).
    @discardableResult
    func pump(_ context: ChannelHandlerContext) -> Bool {
        pumping = true
        defer { pumping = false }
        while let current = streaming {
            guard context.channel.isActive else { return false }
            if !context.channel.isWritable {
                flush(context)
                // The flush may have sent enough already: then go on here.
                if !context.channel.isWritable { return false }
                continue
            }
            handOver(context)
            var slice = MPDResponse()
            let ended = current.rest.write(into: &slice, atLeast: LongAnswers.slice)
            if ended { streaming = nil }
            if slice.count > 0 {
                context.write(NIOAny(slice.bytes), promise: nil)
                unflushed = true
            }
            if ended { out.writeString(current.ending) }
        }
        return true
    }

    /// Hands what was gathered to NIO once it is past `outLimit` (written, not flushed).
    func handOverIfLong(_ context: ChannelHandlerContext) {
        if out.readableBytes >= Self.outLimit { handOver(context) }
    }

    /// Hands what was gathered to NIO (written, not flushed).
    ///
    /// `out` is emptied before NIO sees the bytes: a write or flush can call the handler back
    /// at once (`channelWritabilityChanged`, when NIO's count of unsent bytes crosses a water
    /// mark), and that call must not find the same bytes still gathered and send them again.
    private func handOver(_ context: ChannelHandlerContext) {
        guard out.readableBytes > 0 else { return }
        let gathered = out
        out = context.channel.allocator.buffer(capacity: 1024)
        context.write(NIOAny(gathered), promise: nil)
        unflushed = true
    }

    /// Writes what was gathered and flushes everything handed over.
    func flush(_ context: ChannelHandlerContext) {
        guard out.readableBytes > 0 else {
            if unflushed {
                unflushed = false
                context.flush()
            }
            return
        }
        unflushed = false
        let gathered = out
        out.moveReaderIndex(to: out.writerIndex)  // read as sent, storage still shared
        context.writeAndFlush(NIOAny(gathered), promise: nil)
        guard out.readableBytes == 0 else { return }  // the call back gathered more: keep it
        // NIO has usually written it by now and let go: then the same storage serves the next
        // answers (clearing a buffer held elsewhere allocates). A big one is let go, so an idle
        // connection holds little.
        if out.capacity > 16 * 1024 { out = context.channel.allocator.buffer(capacity: 1024) } else { out.clear() }
    }

    /// The kept answer of a `status` poll alone in its read, with nothing gathered before it:
    /// written and flushed at once, in one trip down the pipeline.
    func send(_ answer: ByteBuffer, _ context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(answer), promise: nil)
    }
}

/// A long answer being made as its client reads it, and the line that ends it. A class, so
/// that the checks for it are a pointer's, not a copy of an existential through the runtime.
private final class Streaming {
    var rest: any AnswerRest
    let ending: String

    init(rest: any AnswerRest, ending: String) {
        self.rest = rest
        self.ending = ending
    }
}
