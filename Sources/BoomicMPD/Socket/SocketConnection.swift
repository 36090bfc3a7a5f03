import CEpoll
import Foundation
import NIOCore

/// One client's socket, owned whole, as MPD's `BufferedSocket` and `FullyBufferedSocket` own
/// theirs: it reads into its input buffer and hands the bytes to its connection
/// (`MPDConnection`), and keeps what the connection hands over until the kernel takes it. Lives
/// on its loop (`SocketLoop`), which calls it when epoll says the socket is ready.
///
/// It behaves as a NIO channel with these options would (the connection was written against
/// them): half-closure allowed (a client that shuts down its side is still answered), the
/// water marks 64 KiB and 256 KiB for `isWritable`, reading paused and resumed (`setReading`).
/// A `status` answer with nothing queued before it goes straight to `send`, with no copy and
/// no queue.
final class SocketConnection: ConnectionIO {
    let fd: CInt
    /// The descriptor and the loop's count of sockets: what epoll hands back for this one.
    let key: UInt64
    private unowned let socketLoop: SocketLoop
    private var connection: MPDConnection?
    /// Runs once the socket is closed (the server's count of connections).
    private let closed: @Sendable () -> Void

    /// What a read lands in; reused while nobody else holds it.
    private var input = ByteBuffer()
    static let readSize = 64 * 1024

    /// Bytes handed over and not yet sent, in order; those before `flushedEnd` were flushed.
    private var output: [Pending] = []
    private var outputStart = 0
    private var flushedEnd = 0
    /// The bytes in `output`, for the water marks.
    private var unsent = 0
    static let lowWaterMark = 64 * 1024
    static let highWaterMark = 256 * 1024

    private(set) var isWritable = true
    private(set) var isActive = true
    private var reading = true
    /// The client has not shut down its side.
    private var inputOpen = true
    private var closeWhenDrained = false
    /// Waiting for the kernel to take more of `output`.
    private var waitingToSend = false
    /// What epoll was asked to watch.
    private(set) var interest: UInt32

    private struct Pending {
        var bytes: ByteBuffer
        let sent: (@Sendable () -> Void)?
    }

    init(fd: CInt, key: UInt64, loop: SocketLoop, closed: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.key = key
        socketLoop = loop
        self.closed = closed
        interest = EPOLLIN.rawValue
    }

    var loop: any ConnectionLoop { socketLoop }

    /// The connection is set up: it greets its client.
    func start(_ connection: MPDConnection) {
        self.connection = connection
        connection.started()
    }

    // MARK: Events from the loop

    /// What epoll said of the socket.
    func handle(_ events: UInt32) {
        guard isActive else { return }
        // An error or a reset: the client is gone, nobody takes an answer.
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
            closeSoon()
            return
        }
        if events & EPOLLOUT.rawValue != 0 { sendFlushed() }
        if events & EPOLLIN.rawValue != 0, reading, inputOpen, isActive { readOnce() }
    }

    private func readOnce() {
        input.clear()
        var result = 0
        input.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.readSize) { room in
            result = Glibc.read(fd, room.baseAddress, room.count)
            return max(result, 0)
        }
        if result > 0 {
            connection?.read(input)
            connection?.readComplete()
        } else if result == 0 {
            inputOpen = false
            updateInterest()
            connection?.inputClosed()
        } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            closeSoon()
        }
    }

    // MARK: ConnectionIO

    func setReading(_ reading: Bool) {
        guard self.reading != reading else { return }
        self.reading = reading
        updateInterest()
    }

    func write(_ bytes: ByteBuffer, sent: (@Sendable () -> Void)?) {
        guard isActive else {
            sent?()
            return
        }
        output.append(Pending(bytes: bytes, sent: sent))
        unsent += bytes.readableBytes
        if isWritable, unsent > Self.highWaterMark {
            isWritable = false
            connection?.writabilityChanged()
        }
    }

    func flush() {
        guard isActive else { return }
        flushedEnd = output.count
        sendFlushed()
    }

    func writeAndFlush(_ bytes: ByteBuffer) {
        // Nothing queued before it: straight to the kernel, and queued only if it takes part.
        guard isActive, outputStart == output.count else {
            write(bytes, sent: nil)
            flush()
            return
        }
        let count = bytes.readableBytes
        let done = bytes.withUnsafeReadableBytes { raw in send(fd, raw.baseAddress, raw.count, CInt(MSG_NOSIGNAL)) }
        if done == count { return }
        if done < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            closeSoon()
            return
        }
        var rest = bytes
        rest.moveReaderIndex(forwardBy: max(done, 0))
        write(rest, sent: nil)
        flush()
    }

    func closeWhenSent() {
        guard isActive else { return }
        closeWhenDrained = true
        flush()
        if outputStart == output.count { closeSoon() }
    }

    // MARK: Sending

    /// Sends what was flushed, as much as the kernel takes now; the rest when epoll says it
    /// takes more.
    private func sendFlushed() {
        var sentSome = false
        while isActive, outputStart < flushedEnd {
            let done = sendSome()
            if done < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                closeSoon()
                return
            }
            sentSome = true
            consume(done)
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.count <= 64)
            outputStart = 0
            flushedEnd = 0
        }
        let waiting = outputStart < flushedEnd
        if waiting != waitingToSend {
            waitingToSend = waiting
            updateInterest()
        }
        if closeWhenDrained, outputStart == output.count {
            closeSoon()
            return
        }
        if sentSome, !isWritable, unsent < Self.lowWaterMark {
            isWritable = true
            connection?.writabilityChanged()
        }
    }

    /// One `sendmsg` of up to 64 of the flushed buffers: the bytes sent, or -1.
    private func sendSome() -> Int {
        let count = min(flushedEnd - outputStart, 64)
        if count == 1 {
            return output[outputStart].bytes.withUnsafeReadableBytes { raw in
                send(fd, raw.baseAddress, raw.count, CInt(MSG_NOSIGNAL))
            }
        }
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            // The buffers are held in `output` while the call runs, so their bytes stay put.
            for i in 0..<count {
                output[outputStart + i].bytes.withUnsafeReadableBytes { raw in
                    vectors[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress), iov_len: raw.count)
                }
            }
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = count
            return sendmsg(fd, &message, CInt(MSG_NOSIGNAL))
        }
    }

    /// Drops `count` sent bytes from the front of `output`, telling those wholly sent.
    private func consume(_ count: Int) {
        var left = count
        unsent -= count
        while left > 0, outputStart < flushedEnd {
            let size = output[outputStart].bytes.readableBytes
            if left < size {
                output[outputStart].bytes.moveReaderIndex(forwardBy: left)
                return
            }
            left -= size
            let done = output[outputStart]
            output[outputStart].bytes = ByteBuffer()
            outputStart += 1
            done.sent?()
        }
        // Empty buffers handed over are sent with whatever came before them.
        while outputStart < flushedEnd, output[outputStart].bytes.readableBytes == 0 {
            let done = output[outputStart]
            outputStart += 1
            done.sent?()
        }
    }

    // MARK: Closing

    /// Stops everything now and closes once the loop's current call has returned.
    func closeSoon() {
        guard isActive else { return }
        isActive = false
        socketLoop.scheduleClose(self)
    }

    /// On the loop, after the socket left epoll: closes it, tells what was not sent, and ends
    /// the connection.
    func finishClose() {
        isActive = false
        Glibc.close(fd)
        let dropped = output[outputStart...]
        output = []
        outputStart = 0
        flushedEnd = 0
        unsent = 0
        for pending in dropped { pending.sent?() }
        connection?.ended()
        connection = nil
        closed()
    }

    private func updateInterest() {
        guard isActive else { return }
        var wanted: UInt32 = 0
        if reading, inputOpen { wanted |= EPOLLIN.rawValue }
        if waitingToSend { wanted |= EPOLLOUT.rawValue }
        guard wanted != interest else { return }
        interest = wanted
        socketLoop.watch(self, wanted)
    }
}
