import Foundation

/// A small blocking MPD client for Boomic's own command line (`boomic status`, `next`, `queue`):
/// connects, checks that the server is Boomic, sends commands and reads their answers.
public final class MPDClientConnection {
    public enum Failure: Error, LocalizedError, Equatable {
        /// Nothing listens there.
        case noServer(String)
        /// Something answers, but not Boomic (MPD itself, or not MPD at all).
        case notBoomic(String)
        /// The server refused a command: its ACK line.
        case refused(MPDError.Code, String)
        case broken(String)

        public var errorDescription: String? {
            switch self {
            case let .noServer(s), let .notBoomic(s), let .broken(s): s
            case let .refused(_, s): s
            }
        }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The Boomic version the server says it runs.
    public private(set) var version = ""

    /// Connects to `address` (`HOST:PORT` or a socket path) and checks that Boomic answers.
    public init(address: MPDServer.Address, password: String? = nil) throws(Failure) {
        switch address {
        case let .tcp(host, port):
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
                throw .noServer("no Boomic server at \(address): cannot resolve \(host)")
            }
            defer { freeaddrinfo(list) }
            fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
            guard fd >= 0 else { throw .noServer("cannot open a socket (\(String(cString: strerror(errno))))") }
            switch Self.connect(within: 5, fd, first.pointee.ai_addr, first.pointee.ai_addrlen) {
            case 0: break
            case ETIMEDOUT:
                close(fd)
                throw .noServer("no answer from \(address) within 5 s: is the host up and the address right?")
            default:
                close(fd)
                throw .noServer("no Boomic server at \(address); start one with 'boomic serve'")
            }
        case let .unix(path):
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_un()
            a.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8.prefix(MemoryLayout.size(ofValue: a.sun_path) - 1))
            withUnsafeMutableBytes(of: &a.sun_path) { p in for (i, b) in bytes.enumerated() { p[i] = b } }
            let ok = withUnsafePointer(to: &a) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
            }
            guard fd >= 0, ok else {
                if fd >= 0 { close(fd) }
                throw .noServer("no Boomic server at \(address); start one with 'boomic serve'")
            }
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let greeting: String
        do {
            greeting = try line()
        } catch {
            close(fd)
            throw .notBoomic("\(address) took the connection but said nothing in 10 s: not an MPD server")
        }
        guard greeting.hasPrefix("OK MPD ") else {
            close(fd)
            throw .notBoomic("\(address) does not speak MPD's protocol: not a Boomic server")
        }
        // MPD answers `unknown command`; Boomic waiting for its password, `permission`.
        do {
            if let password { _ = try command("password", password) }
            version = try command("boomic", "version").first { $0.0 == "boomic" }?.1 ?? ""
        } catch .refused(.permission, _) {
            close(fd)
            throw .refused(.permission, "\(address) wants a password: set BOOMIC_PASSWORD")
        } catch .refused(.password, _) {
            close(fd)
            throw .refused(.password, "\(address) refused the password in BOOMIC_PASSWORD")
        } catch {
            close(fd)
            throw .notBoomic("\(address) is \(greeting.dropFirst(3)), not Boomic; pass --server or set BOOMIC_SERVER")
        }
    }

    deinit { close(fd) }

    /// `connect(2)` that gives up after `seconds` (an unreachable host would hold it for two
    /// minutes): 0, or the errno (ETIMEDOUT when it gave up).
    private static func connect(within seconds: Int32, _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if Glibc.connect(fd, address, length) == 0 { return 0 }
        guard errno == EINPROGRESS else { return errno }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat { ready = poll(&p, 1, seconds * 1000) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return ETIMEDOUT }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else { return errno }
        return error
    }

    /// Sends one command and returns its `key: value` lines.
    @discardableResult
    public func command(_ name: String, _ arguments: String...) throws(Failure) -> [(String, String)] {
        try command(name, arguments)
    }

    public func command(_ name: String, _ arguments: [String]) throws(Failure) -> [(String, String)] {
        let text = ([name] + arguments.map(MPDCommandLine.quote)).joined(separator: " ") + "\n"
        let sent = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == text.utf8.count else { throw .broken("the server closed the connection") }
        var pairs: [(String, String)] = []
        while true {
            let l = try line()
            if l == "OK" { return pairs }
            if l.hasPrefix("ACK ") {
                let code = l.dropFirst(5).prefix { $0.isNumber }
                let message = l.split(separator: "}", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? l
                throw .refused(MPDError.Code(rawValue: Int(code) ?? 5) ?? .unknown, message)
            }
            guard let colon = l.range(of: ": ") else { continue }
            pairs.append((String(l[..<colon.lowerBound]), String(l[colon.upperBound...])))
        }
    }

    private func line() throws(Failure) -> String {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let l = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return l
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw .broken("the server closed the connection") }
            buffer += chunk[..<n]
        }
    }
}
