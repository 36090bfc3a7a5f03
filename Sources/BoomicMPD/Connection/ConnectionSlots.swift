import Foundation
import NIOCore

/// How many connections the server holds at once, and for whom: a cap for all, a cap for each
/// address that is not this machine's, and slots that only loopback and the local socket may
/// take. So one remote host holding connections open (1,024 that send `idle` and wait) locks
/// out neither the other hosts nor the machine's own clients. A pure value: the server keeps
/// one behind a lock and asks it at each connection's set-up.
struct ConnectionSlots: Sendable, Equatable {
    /// Who is at the other end of a connection, as the caps judge it.
    enum Peer: Hashable, Sendable {
        /// The local socket: trusted, as MPD trusts it.
        case local
        /// 127.0.0.0/8, ::1, or an IPv4 loopback address mapped into IPv6.
        case loopback
        /// Anything else, by address; an IPv6 address by its /64, the block one host is given,
        /// so that a host cannot take a fresh address for every connection.
        case remote(String)
    }

    struct Limits: Sendable, Equatable {
        /// Connections at once, from anywhere.
        var total: Int
        /// Connections at once from one remote address.
        var perRemoteAddress: Int
        /// Of `total`, the slots remote addresses never take.
        var keptForLocal: Int

        /// MPD's default is 100 connections in all; people run more clients than that against
        /// Boomic's tests (200), and nobody a thousand. One remote host runs a handful of clients;
        /// 64 leaves room for a household behind one NAT address.
        static let standard = Limits(total: 1024, perRemoteAddress: 64, keptForLocal: 64)
    }

    let limits: Limits
    private(set) var total = 0
    private(set) var remote = 0
    private var byAddress: [String: Int] = [:]

    init(limits: Limits = .standard) { self.limits = limits }

    /// Takes a slot for `peer`; false when the caps leave none (the connection is refused).
    mutating func admit(_ peer: Peer) -> Bool {
        guard total < limits.total else { return false }
        if case let .remote(address) = peer {
            guard remote < limits.total - limits.keptForLocal, byAddress[address, default: 0] < limits.perRemoteAddress else {
                return false
            }
            remote += 1
            byAddress[address, default: 0] += 1
        }
        total += 1
        return true
    }

    /// Gives back the slot an admitted connection of `peer` held.
    mutating func release(_ peer: Peer) {
        total -= 1
        guard case let .remote(address) = peer else { return }
        remote -= 1
        let left = byAddress[address, default: 1] - 1
        byAddress[address] = left > 0 ? left : nil
    }

    /// How the caps see a TCP connection's remote address (nil: unknown, taken for remote).
    static func peer(of address: SocketAddress?) -> Peer {
        guard let address else { return .remote("?") }
        switch address {
        case .unixDomainSocket: return .local
        case .v4, .v6: break
        }
        guard let text = address.ipAddress else { return .remote("?") }
        return peer(ip: text)
    }

    /// `peer(of:)`, of an address's text (`192.0.2.1`, `2001:db8::1`, `::ffff:127.0.0.1`).
    static func peer(ip text: String) -> Peer {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return peer(v4: UInt32(bigEndian: v4.s_addr), text) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return .remote(text) }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return .loopback }
        // An IPv4 client of a listener on `[::]` (::ffff:a.b.c.d) is that IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            let value = bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return peer(v4: value, bytes[12...].map(String.init).joined(separator: "."))
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return .remote(groups.joined(separator: ":") + "::/64")
    }

    private static func peer(v4 value: UInt32, _ text: String) -> Peer {
        value >> 24 == 127 ? .loopback : .remote(text)
    }
}
