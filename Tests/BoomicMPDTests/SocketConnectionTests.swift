import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import Testing

/// The server's own sockets (`SocketLoop`, `SocketConnection`) over real TCP connections on
/// loopback: answers megabytes past what the kernel holds arrive whole and in order, a client
/// that shuts down its side is answered before the close, `close` sends what came before it,
/// an idle is woken from another thread, and stopping the server ends its clients'
/// connections.
@Suite struct SocketConnectionTests {
    /// Runs `body` with a server on a free loopback port, over an empty library.
    static func withServer(_ body: (Int) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let library = ServerLibrary(session: session, folders: [dir])
            let hub = IdleHub()
            let rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: dir), outputs: [.null],
                              sound: SoundSettings(), hub: hub, record: false, warn: { _ in })
            defer { rooms.quitAll() }
            let context = ServerContext(library: library, rooms: rooms, hub: hub, password: nil, version: "test")
            let server = MPDServer(context: context)
            let port = ListenerTests.freePort()
            try server.start(at: .tcp(host: "127.0.0.1", port: port))
            defer { server.stop() }
            try body(port)
        }
    }

    /// A connected client socket (reads give up after 10 s), its greeting read.
    static func connect(_ port: Int) throws -> CInt {
        let (fd, greeted) = try ConnectionSlotsTests.connect(from: "127.0.0.1", port: port)
        guard greeted else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    static func send(_ fd: CInt, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Reads until `done` says the text so far is complete, or the server closes (`closed`).
    static func read(_ fd: CInt, until done: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var text = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (String(decoding: text, as: UTF8.self), n == 0) }
            text.append(contentsOf: buffer[..<n])
            // Only the tail can complete it.
            if done(String(decoding: text.suffix(64), as: UTF8.self)) { return (String(decoding: text, as: UTF8.self), false) }
        }
    }

    @Test func answersPastWhatTheKernelHoldsArriveWholeAndInOrder() throws {
        try Self.withServer { port in
            let fd = try Self.connect(port)
            defer { close(fd) }
            // Three lists of 9,000 `status` (~6 MB of answers, more than the kernel's buffers
            // hold), sent before a byte is read: the server queues, waits for room, and stops
            // reading meanwhile.
            let list = "command_list_begin\n" + String(repeating: "status\n", count: 9000) + "command_list_end\n"
            Self.send(fd, list + list + list + "ping\n")
            let (text, closed) = Self.read(fd) { $0.hasSuffix("\nOK\nOK\n") }
            #expect(!closed)
            let lines = text.split(separator: "\n")
            #expect(lines.count(where: { $0 == "state: stop" }) == 27_000)
            #expect(lines.count(where: { $0 == "OK" }) == 4, "each list's OK and ping's")
            #expect(lines.last == "OK" && lines.dropLast().last == "OK")
        }
    }

    @Test func aClientThatShutsDownItsSideIsAnsweredThenClosed() throws {
        try Self.withServer { port in
            let fd = try Self.connect(port)
            defer { close(fd) }
            Self.send(fd, "ping\nstatus\nping\n")
            shutdown(fd, CInt(SHUT_WR))
            let (text, closed) = Self.read(fd)
            #expect(closed, "closed once answered")
            #expect(text.hasPrefix("OK\nvolume: ") && text.hasSuffix("\nOK\nOK\n"), "\(text)")
        }
    }

    @Test func closeSendsWhatCameBeforeIt() throws {
        try Self.withServer { port in
            let fd = try Self.connect(port)
            defer { close(fd) }
            Self.send(fd, "ping\nclose\nping\n")
            let (text, closed) = Self.read(fd)
            #expect(closed && text == "OK\n", "\(text)")
        }
    }

    @Test func anIdleIsWokenByAnotherClientsChange() throws {
        try Self.withServer { port in
            let waiter = try Self.connect(port), changer = try Self.connect(port)
            defer {
                close(waiter)
                close(changer)
            }
            Self.send(waiter, "idle options\n")
            Self.send(changer, "repeat 1\n")
            #expect(Self.read(changer) { $0.hasSuffix("OK\n") }.text == "OK\n")
            let (text, closed) = Self.read(waiter) { $0.hasSuffix("OK\n") }
            #expect(!closed && text == "changed: options\nOK\n", "\(text)")
        }
    }

    @Test func stoppingTheServerEndsItsConnections() throws {
        var fd: CInt = -1
        try Self.withServer { port in
            fd = try Self.connect(port)
            // Read by the server before it stops (ping's answer says so): a request left unread
            // in its socket would make the close a reset.
            Self.send(fd, "ping\nidle\n")
            #expect(Self.read(fd) { $0.hasSuffix("OK\n") }.text == "OK\n")
        }
        defer { close(fd) }
        let (text, closed) = Self.read(fd)
        #expect(closed && text.isEmpty, "\(text)")
    }
}
