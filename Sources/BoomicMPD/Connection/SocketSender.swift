#if canImport(Glibc)
import Glibc
#endif

/// Sends a connection's answers straight to its socket while NIO holds none of its bytes.
///
/// Why: NIO's write path (`writeAndFlush` down the pipeline, its queue of pending writes, the
/// promise and writability bookkeeping) was 4,000 of the 10,600 instructions a `status` poll
/// cost the server, more than all the rest of the server's own work for it; an answer of a few
/// hundred bytes to a socket with room needs one `send`. NIO stays the socket's owner: it
/// reads, it closes, and it is handed whatever the socket does not take at once, and
/// everything after that until it has written it, so the bytes keep their order
/// (`MPDConnectionHandler.flush`).
struct SocketSender {
    /// Sends what the socket takes of `bytes` now, without waiting: the count sent, 0 when it
    /// takes none (full, or failed: the bytes then go to NIO, which meets the same error and
    /// closes the connection as it does for its own writes).
    let send: (UnsafeRawBufferPointer) -> Int

    init(send: @escaping (UnsafeRawBufferPointer) -> Int) {
        self.send = send
    }

    /// To the connected socket `fd`, which NIO owns: valid while the channel is active (NIO
    /// closes it before it marks the channel inactive, with no call out to handlers between).
    init(socket fd: CInt) {
        send = { bytes in
            max(Glibc.send(fd, bytes.baseAddress, bytes.count, CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT)), 0)
        }
    }
}
