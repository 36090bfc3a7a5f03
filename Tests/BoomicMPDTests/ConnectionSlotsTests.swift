import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import Testing

/// Connections are capped per remote address, with slots kept for loopback and the local
/// socket: one host holding connections open (1,024 that send `idle` and wait locked everyone
/// out) costs the others nothing.
@Suite struct ConnectionSlotsTests {
    typealias Peer = ConnectionSlots.Peer

    @Test(arguments: [
        ("127.0.0.1", Peer.loopback), ("127.3.2.1", .loopback), ("::1", .loopback), ("::ffff:127.0.0.1", .loopback),
        ("192.0.2.7", .remote("192.0.2.7")), ("::ffff:192.0.2.7", .remote("192.0.2.7")), ("10.0.0.1", .remote("10.0.0.1")),
        // One host's /64 is one address: a fresh address per connection gains nothing.
        ("2001:db8:1:2::1", .remote("2001:db8:1:2::/64")), ("2001:db8:1:2:ffff::9", .remote("2001:db8:1:2::/64")),
        ("::2", .remote("0:0:0:0::/64")),
    ])
    func addressesAreJudged(_ text: String, _ expected: Peer) {
        #expect(ConnectionSlots.peer(ip: text) == expected, "\(text)")
    }

    @Test func theCapsHoldAndSlotsComeBack() {
        var slots = ConnectionSlots(limits: .init(total: 10, perRemoteAddress: 3, keptForLocal: 2))
        let a = Peer.remote("192.0.2.1"), b = Peer.remote("192.0.2.2"), c = Peer.remote("192.0.2.3")
        func admit(_ peer: Peer, _ times: Int) -> [Bool] { (0..<times).map { _ in slots.admit(peer) } }
        #expect(admit(a, 5) == [true, true, true, false, false], "3 for one address")
        #expect(admit(b, 3) == [true, true, true])
        #expect(admit(c, 3) == [true, true, false], "remote addresses share 8 of 10")
        #expect(admit(.loopback, 1) == [true] && admit(.local, 1) == [true], "the kept slots")
        #expect(admit(.loopback, 1) == [false], "10 in all")
        slots.release(a)
        #expect(admit(.loopback, 1) == [true] && admit(a, 1) == [false], "a slot given back is anyone's")
        slots.release(.loopback)
        #expect(admit(a, 1) == [true], "and the address's own again")
        #expect(slots.total == 10 && slots.remote == 8)
    }

    /// Connects from `source` (any 127/8 address is this machine's) to the server's port; the
    /// socket and whether the server greeted it (else it closed it at once).
    static func connect(from source: String, port: Int) throws -> (fd: CInt, greeted: Bool) {
        let fd = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        var wait = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        func address(_ ip: String, _ port: Int) -> sockaddr_in {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, ip, &a.sin_addr)
            return a
        }
        var from = address(source, 0), to = address("127.0.0.1", port)
        let bound = withUnsafePointer(to: &from) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &to) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = recv(fd, &buffer, buffer.count, 0)
        return (fd, n > 0 && String(decoding: buffer[..<n], as: UTF8.self) == MPDSession.greeting)
    }

    @Test func oneRemoteAddressCannotLockOthersOut() throws {
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let library = ServerLibrary(session: session, folders: [dir])
            let hub = IdleHub()
            let rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: dir), outputs: [.null],
                              sound: SoundSettings(), hub: hub, record: false, warn: { _ in })
            defer { rooms.quitAll() }
            let context = ServerContext(library: library, rooms: rooms, hub: hub, password: nil, version: "test")
            // 127.0.0.2 and 127.0.0.3 stand for two remote hosts; 127.0.0.1 is this machine.
            let server = MPDServer(context: context, limits: .init(total: 8, perRemoteAddress: 3, keptForLocal: 2)) { address in
                switch address?.ipAddress {
                case "127.0.0.2": .remote("192.0.2.2")
                case "127.0.0.3": .remote("192.0.2.3")
                default: ConnectionSlots.peer(of: address)
                }
            }
            let port = ListenerTests.freePort()
            try server.start(at: .tcp(host: "127.0.0.1", port: port))
            defer { server.stop() }
            var open: [CInt] = []
            defer { for fd in open { close(fd) } }
            func attempt(_ source: String) throws -> Bool {
                let (fd, greeted) = try Self.connect(from: source, port: port)
                open.append(fd)
                return greeted
            }
            #expect(try (0..<4).map { _ in try attempt("127.0.0.2") } == [true, true, true, false], "3 for one remote address")
            #expect(try (0..<3).map { _ in try attempt("127.0.0.3") } == [true, true, true], "another remote host still gets in")
            #expect(try attempt("127.0.0.1") && attempt("127.0.0.1"), "this machine's clients take the kept slots")
            #expect(try !attempt("127.0.0.1"), "8 in all")
        }
    }
}
