@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import Synchronization
import Testing

/// The listening socket `boomic serve` accepts on: a busy port and a path that holds something
/// else are one-line errors (and the something else is left alone); an earlier run's socket file
/// is replaced; connections reach `run`'s callback until `stop`, and none after.
@Suite struct ListenerTests {
    /// Connects to `address`; the connected socket, or nil when refused.
    static func connect(_ address: MPDServer.Address) -> CInt? {
        switch address {
        case let .tcp(_, port):
            let fd = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
            var to = sockaddr_in()
            to.sin_family = sa_family_t(AF_INET)
            to.sin_port = in_port_t(UInt16(port).bigEndian)
            to.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            let done = withUnsafePointer(to: &to) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if done == 0 { return fd }
            close(fd)
            return nil
        case let .unix(path):
            let fd = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
            var to = sockaddr_un()
            to.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &to.sun_path) { room in
                for (i, byte) in path.utf8.enumerated() { room[i] = byte }
            }
            let done = withUnsafePointer(to: &to) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if done == 0 { return fd }
            close(fd)
            return nil
        }
    }

    /// A port nobody listens on now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var at = sockaddr_in()
        at.sin_family = sa_family_t(AF_INET)
        at.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &at) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        return Int(UInt16(bigEndian: at.sin_port))
    }

    /// Accepts on `address` until stopped; each accepted socket is counted and closed.
    static func accepting(_ address: MPDServer.Address, _ body: (Listener, () -> Int) throws -> Void) throws {
        let listener = try Listener(address, backlog: 16)
        let accepted = Atomic<Int>(0)
        listener.run { fd in
            accepted.add(1, ordering: .relaxed)
            close(fd)
        }
        try body(listener) { accepted.load(ordering: .relaxed) }
    }

    /// Waits for `count()` to reach `expected`; what it is then.
    static func settle(_ count: () -> Int, at expected: Int) -> Int {
        try? waitUntil("\(expected) connections") { count() >= expected }
        return count()
    }

    @Test(arguments: ["tcp", "unix"])
    func connectionsAreAcceptedUntilTheStop(_ kind: String) throws {
        let dir = TempDir("boomic-listener")
        let address: MPDServer.Address = kind == "tcp" ? .tcp(host: "127.0.0.1", port: Self.freePort()) : .unix(path: dir.file("s.sock"))
        try Self.accepting(address) { listener, count in
            for _ in 0..<5 { if let fd = Self.connect(address) { close(fd) } }
            #expect(Self.settle(count, at: 5) == 5)
            listener.stop()
            #expect(Self.connect(address) == nil, "nothing listens after the stop")
        }
        withExtendedLifetime(dir) {}
    }

    @Test func aBusyPortIsAOneLineError() throws {
        let address = MPDServer.Address.tcp(host: "127.0.0.1", port: Self.freePort())
        try Self.accepting(address) { listener, _ in
            defer { listener.stop() }
            #expect(throws: MPDServerError("cannot listen on \(address): Address already in use (is MPD or another boomic serve there? pick another with --bind)")) {
                try Listener(address, backlog: 16)
            }
        }
    }

    @Test func anUnknownHostIsAOneLineError() throws {
        #expect {
            try Listener(.tcp(host: "no-such-host.invalid", port: 6600), backlog: 16)
        } throws: { error in
            let message = (error as? MPDServerError)?.message ?? ""
            return message.hasPrefix("cannot listen on no-such-host.invalid:6600: ") && !message.contains("\n")
        }
    }

    /// A file that is not a socket at the path is refused, and kept as it was.
    @Test func aFileAtTheSocketsPathIsLeftAlone() throws {
        let dir = TempDir("boomic-listener")
        let path = dir.file("music.flac")
        try "not a socket".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: MPDServerError("cannot listen on \(path): something that is not a socket is there")) {
            try Listener(.unix(path: path), backlog: 16)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a socket")
    }

    /// The socket file a killed server left behind is replaced.
    @Test func anEarlierRunsSocketFileIsReplaced() throws {
        let dir = TempDir("boomic-listener")
        let address = MPDServer.Address.unix(path: dir.file("s.sock"))
        let first = try Listener(address, backlog: 16)
        first.run { close($0) }
        first.stop()  // closes the socket, leaves its file, as a kill would
        #expect(FileManager.default.fileExists(atPath: dir.file("s.sock")))
        try Self.accepting(address) { listener, count in
            if let fd = Self.connect(address) { close(fd) }
            #expect(Self.settle(count, at: 1) == 1)
            listener.stop()
        }
    }

    @Test func aPathTooLongForASocketIsAOneLineError() {
        let path = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: MPDServerError("cannot listen on \(path): a local socket's path has at most 107 bytes")) {
            try Listener(.unix(path: path), backlog: 16)
        }
    }
}
