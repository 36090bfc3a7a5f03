import NIOCore

/// The socket under one MPD connection (`MPDConnection`), as the connection uses it: bytes
/// handed over and flushed, whether the client takes them, reading paused and resumed, the
/// close once all is sent, and the loop the connection runs on. `SocketConnection` is the one
/// the server runs; the tests drive the same connection over NIO's `EmbeddedChannel`.
///
/// Its calls back into the connection (`MPDConnection.writabilityChanged`) may come from inside
/// `write` and `flush`, as a channel's do: the connection and its writer allow for that.
protocol ConnectionIO: AnyObject {
    /// Under the high water mark of bytes handed over and not yet sent (256 KiB; true again
    /// under the low one, 64 KiB).
    var isWritable: Bool { get }
    /// Not closed.
    var isActive: Bool { get }
    /// Reads the client's requests, or leaves them in the socket until it is asked again.
    func setReading(_ reading: Bool)
    /// Hands `bytes` over, to go out at the next `flush`; `sent` runs (on the loop) once they
    /// are on the socket, or the connection closed first.
    func write(_ bytes: ByteBuffer, sent: (@Sendable () -> Void)?)
    /// Sends what was handed over.
    func flush()
    /// `write` and `flush` at once.
    func writeAndFlush(_ bytes: ByteBuffer)
    /// Closes once what was handed over is sent, or at once when the client is gone.
    func closeWhenSent()
    /// The loop this connection runs on.
    var loop: any ConnectionLoop { get }
}

/// The thread a connection runs on, which other threads hand work to.
protocol ConnectionLoop: Sendable {
    /// Runs `task` on the loop's thread, after what it is doing now.
    func execute(_ task: @escaping @Sendable () -> Void)
}

/// A connection carried through another thread (work off the loop, a change that ends an
/// idle) back to its loop, where alone it is used.
struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    // Safe: `value` is read only inside `execute`'s task, which runs on `loop`, the thread that
    // made this and the only one that uses the value; other threads only carry the reference.
    private let value: Value
    private let loop: any ConnectionLoop

    init(_ value: Value, loop: any ConnectionLoop) {
        self.value = value
        self.loop = loop
    }

    /// Runs `body` with the value on its loop.
    func execute(_ body: @escaping @Sendable (Value) -> Void) {
        loop.execute { body(self.value) }
    }
}
