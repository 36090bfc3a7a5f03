import Foundation

/// The listening socket, and a thread of its own that accepts on it.
///
/// Accepting takes no event loop's time (a burst of connections, or a descriptor limit reached,
/// is this thread's to wait out). Each accepted socket is handed to one of the server's loops
/// (`SocketLoop`), whose `SocketConnection` alone reads, writes and closes it from then on.
final class Listener: Sendable {
    /// The listening socket (non-blocking: the thread waits in `poll`).
    private let fd: CInt
    /// `stop` writes to it to end the thread's wait.
    private let wake: (read: CInt, write: CInt)
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on `address` (a local socket's file left over from an earlier run is replaced,
    /// anything else at its path is an error).
    init(_ address: MPDServer.Address, backlog: CInt) throws(MPDServerError) {
        let fd: CInt
        switch address {
        case let .tcp(host, port): fd = try Self.listening(host: host, port: port, backlog: backlog, address)
        case let .unix(path): fd = try Self.listening(path: path, backlog: backlog)
        }
        var ends: [CInt] = [0, 0]
        guard pipe(&ends) == 0, Self.nonBlocking(ends[0]), Self.nonBlocking(ends[1]) else {
            let error = Self.failure(address, errno)
            close(fd)
            throw error
        }
        self.fd = fd
        wake = (ends[0], ends[1])
    }

    /// Accepts until `stop`, calling `accepted` with each connection's socket (non-blocking,
    /// close-on-exec), on the listener's thread.
    func run(_ accepted: @escaping @Sendable (CInt) -> Void) {
        let thread = Thread { [self] in
            defer { finished.signal() }
            var waits = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            while true {
                if poll(&waits, 2, -1) < 0, errno != EINTR { return }
                if waits[1].revents != 0 { return }
                guard waits[0].revents != 0 else { continue }
                acceptAll(accepted)
            }
        }
        thread.name = "boomic-accept"
        thread.start()
    }

    /// What is waiting to be accepted. Out of descriptors (or kernel memory), it pauses a
    /// little instead of spinning on a listener that stays readable: the connections wait in
    /// the backlog until some close.
    private func acceptAll(_ accepted: @Sendable (CInt) -> Void) {
        while true {
            // (accept4, which sets both flags at once, is a GNU extension Swift's Glibc does not show.)
            let connection = accept(fd, nil, nil)
            if connection >= 0 {
                if Self.nonBlocking(connection) {
                    accepted(connection)
                } else {
                    close(connection)
                }
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue  // that one connection is gone: the next
            case EAGAIN, EWOULDBLOCK: return
            default:
                usleep(50_000)
                return
            }
        }
    }

    /// Stops accepting, after `run`: once its thread has ended, no more calls of `accepted` come.
    /// Closes the listening socket.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        close(fd)
        close(wake.read)
        close(wake.write)
    }

    // MARK: Sockets

    /// Sets `O_NONBLOCK` and `FD_CLOEXEC` on `fd` (a child process, such as a decoder helper,
    /// must not hold a client's connection open).
    private static func nonBlocking(_ fd: CInt) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) == 0
    }

    private static func listening(host: String, port: Int, backlog: CInt, _ address: MPDServer.Address) throws(MPDServerError) -> CInt {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = CInt(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw MPDServerError("cannot listen on \(address): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        // The first address, as `getaddrinfo` orders them.
        let fd = socket(first.pointee.ai_family, CInt(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure(address, errno) }
        var one: CInt = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
        // Accepted sockets inherit it: an answer goes out at once, not after the last one's ACK.
        setsockopt(fd, CInt(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<CInt>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, listen(fd, backlog) == 0 else {
            let error = failure(address, errno)
            close(fd)
            throw error
        }
        return fd
    }

    private static func listening(path: String, backlog: CInt) throws(MPDServerError) -> CInt {
        let address = MPDServer.Address.unix(path: path)
        var local = sockaddr_un()
        local.sun_family = sa_family_t(AF_UNIX)
        let room = MemoryLayout.size(ofValue: local.sun_path)
        guard path.utf8.count < room else {
            throw MPDServerError("cannot listen on \(path): a local socket's path has at most \(room - 1) bytes")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw MPDServerError("cannot listen on \(path): something that is not a socket is there")
            }
            unlink(path)  // an earlier run's
        }
        withUnsafeMutableBytes(of: &local.sun_path) { room in
            for (i, byte) in path.utf8.enumerated() { room[i] = byte }
        }
        let fd = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure(address, errno) }
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let error = failure(address, errno)
            close(fd)
            throw error
        }
        return fd
    }

    private static func failure(_ address: MPDServer.Address, _ code: CInt) -> MPDServerError {
        let hint = code == EADDRINUSE ? " (is MPD or another boomic serve there? pick another with --bind)" : ""
        return MPDServerError("cannot listen on \(address): \(String(cString: strerror(code)))\(hint)")
    }
}
