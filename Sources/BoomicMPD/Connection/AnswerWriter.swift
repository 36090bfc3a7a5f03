import NIOCore

/// Writes one connection's answers to its socket (`ConnectionIO`): short ones gathered into one
/// buffer and written once per read, big ones (`listallinfo`) handed over as they are, under the
/// limit of what all connections hold unsent (`UnsentAnswers`), and long ones made as the client
/// reads them (`MPDResponse.rest`), a slice at a time while the socket is writable. Runs on the
/// connection's loop.
final class AnswerWriter {
    /// Answers not yet handed to the socket: gathered here and written as one buffer at the end
    /// of the read; past `outLimit` they are handed over at once, so the socket's count of
    /// unsent bytes (and the back-pressure on a client that does not read) stays right. Cleared
    /// after the flush, when the socket has let go of it, so one buffer serves a connection's
    /// requests.
    private var out = ByteBuffer()
    static let outLimit = 64 * 1024
    /// Bytes were handed to the socket and not flushed since: `flush` flushes only then.
    private(set) var unflushed = false
    /// A long answer being made as the client reads it, and what ends it (`OK`, `list_OK`):
    /// nothing else is answered until it has ended.
    private var streaming: Streaming?
    /// In `pump`: a client taking its answers meanwhile (a flush there can tell at once) is seen
    /// by `pump` itself, not by a second `pump` inside the first.
    private(set) var pumping = false
    private let unsent: UnsentAnswers
    private let io: any ConnectionIO

    init(unsent: UnsentAnswers, io: any ConnectionIO) {
        self.unsent = unsent
        self.io = io
    }

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

    /// The response, then `ending`; a big one goes to the socket as it is, not copied, if the
    /// answers waiting for all clients leave room for it: false, and nothing written, when they
    /// do not.
    func write(_ response: MPDResponse, ending: String) -> Bool {
        if let rest = response.rest {
            out.writeImmutableBuffer(response.bytes)
            streaming = Streaming(rest: rest, ending: ending)
            pump()
            return true
        }
        let count = response.bytes.readableBytes
        if count >= Self.outLimit {
            let unsent = unsent
            guard unsent.take(count) else { return false }
            handOver()
            // Once the socket has sent the bytes, or the connection closed first: the room
            // comes back either way.
            io.write(response.bytes, sent: { unsent.give(count) })
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
    /// handed to the socket until its count of unsent bytes passes the high water mark; the
    /// client's reading it down to the low one (`MPDConnection.writabilityChanged`) calls this
    /// again. True once the answer has ended and its ending is written (or none was being made).
    @discardableResult
    func pump() -> Bool {
        pumping = true
        defer { pumping = false }
        while let current = streaming {
            guard io.isActive else { return false }
            if !io.isWritable {
                flush()
                // The flush may have sent enough already: then go on here.
                if !io.isWritable { return false }
                continue
            }
            handOver()
            var slice = MPDResponse()
            let ended = current.rest.write(into: &slice, atLeast: LongAnswers.slice)
            if ended { streaming = nil }
            if slice.count > 0 {
                io.write(slice.bytes, sent: nil)
                unflushed = true
            }
            if ended { out.writeString(current.ending) }
        }
        return true
    }

    /// Hands what was gathered to the socket once it is past `outLimit` (written, not flushed).
    func handOverIfLong() {
        if out.readableBytes >= Self.outLimit { handOver() }
    }

    /// Hands what was gathered to the socket (written, not flushed).
    ///
    /// `out` is emptied before the socket sees the bytes: a write or flush can call the
    /// connection back at once (`MPDConnection.writabilityChanged`, when the count of unsent
    /// bytes crosses a water mark), and that call must not find the same bytes still gathered
    /// and send them again.
    private func handOver() {
        guard out.readableBytes > 0 else { return }
        let gathered = out
        out = ByteBufferAllocator().buffer(capacity: 1024)
        io.write(gathered, sent: nil)
        unflushed = true
    }

    /// Writes what was gathered and flushes everything handed over.
    func flush() {
        guard out.readableBytes > 0 else {
            if unflushed {
                unflushed = false
                io.flush()
            }
            return
        }
        unflushed = false
        let gathered = out
        out.moveReaderIndex(to: out.writerIndex)  // read as sent, storage still shared
        io.writeAndFlush(gathered)
        guard out.readableBytes == 0 else { return }  // the call back gathered more: keep it
        // The socket has usually sent it by now and let go: then the same storage serves the
        // next answers (clearing a buffer held elsewhere allocates). A big one is let go, so an
        // idle connection holds little.
        if out.capacity > 16 * 1024 { out = ByteBufferAllocator().buffer(capacity: 1024) } else { out.clear() }
    }

    /// The kept answer of a `status` poll alone in its read, with nothing gathered before it:
    /// written and flushed at once.
    func send(_ answer: ByteBuffer) {
        io.writeAndFlush(answer)
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
