import Foundation
import NIOCore
import Synchronization

/// `boomic serve`'s listener: accepts MPD clients on a TCP address or a local socket and gives
/// each its own conversation. One event loop per core (`SocketLoop`, epoll over the sockets it
/// owns): commands read immutable snapshots and hand work to the player (shared state is behind
/// locks), so clients on different loops never wait for each other, and none holds its loop for
/// long.
public final class MPDServer: Sendable {
    /// Where clients connect.
    public enum Address: Equatable, Sendable, CustomStringConvertible {
        case tcp(host: String, port: Int)
        case unix(path: String)

        /// `HOST:PORT`, `[IPv6]:PORT`, `PORT`, or an absolute path for a local socket; an error
        /// names `option`, the flag the text came from.
        public init(parsing text: String, option: String = "--bind") throws(MPDServerError) {
            if text.hasPrefix("/") {
                self = .unix(path: text)
                return
            }
            if let port = Int(text) {
                self = .tcp(host: "127.0.0.1", port: port)
                return
            }
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                  (1...65_535).contains(port) else {
                throw MPDServerError("\(option) takes HOST:PORT or an absolute socket path, not '\(text)'")
            }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw MPDServerError("\(option) takes HOST:PORT or an absolute socket path, not '\(text)'") }
            self = .tcp(host: host, port: port)
        }

        public var description: String {
            switch self {
            case let .tcp(host, port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case let .unix(path): path
            }
        }
    }

    public static let lineLimit = 64 * 1024
    /// Connections at once; one more is closed at once. Each holds little (its answers wait
    /// at most 256 KiB), but without a limit a client opening connections in a loop would
    /// hold file descriptors and memory without end (`ConnectionSlots` has the caps).
    public static let maxConnections = ConnectionSlots.Limits.standard.total

    private let context: ServerContext
    /// The connections' loops, while the server runs.
    private let loops = Mutex<[SocketLoop]>([])
    private let listener = Mutex<Listener?>(nil)
    private let numbers = ClientNumbers()
    /// The connections held, by whom: a connection past a cap is refused at its set-up.
    private let slots: HeldSlots
    /// Who a TCP connection's peer is, for the caps (tests stand a loopback address for a
    /// remote one).
    private let judge: @Sendable (SocketAddress?) -> ConnectionSlots.Peer

    public convenience init(context: ServerContext) {
        self.init(context: context, limits: .standard, judge: ConnectionSlots.peer(of:))
    }

    init(context: ServerContext, limits: ConnectionSlots.Limits,
         judge: @escaping @Sendable (SocketAddress?) -> ConnectionSlots.Peer) {
        self.context = context
        slots = HeldSlots(ConnectionSlots(limits: limits))
        self.judge = judge
    }

    /// Starts listening; returns once clients can connect.
    public func start(at address: Address) throws(MPDServerError) {
        var loops: [SocketLoop] = []
        let listener: Listener
        do throws(MPDServerError) {
            for i in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) {
                loops.append(try SocketLoop(name: "boomic-mpd-\(i)"))
            }
            listener = try Listener(address, backlog: 256)
        } catch {
            for loop in loops { loop.start() }
            for loop in loops { loop.stop() }
            throw error
        }
        for loop in loops { loop.start() }
        self.loops.withLock { $0 = loops }
        let (context, numbers, slots, judge, started) = (context, numbers, slots, judge, loops)
        let local: Bool
        if case .unix = address { local = true } else { local = false }
        let turns = ClientNumbers()
        listener.run { socket in
            let remote = local ? nil : Self.remoteAddress(of: socket)
            let peer = local ? .local : judge(remote)
            guard slots.held.withLock({ $0.admit(peer) }) else {
                close(socket)  // the client sees its connection end
                return
            }
            var one: CInt = 1
            setsockopt(socket, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<CInt>.size))
            let address = remote?.description ?? "local"
            // The loops take connections in turn.
            started[turns.next() % started.count].adopt(socket, closed: { slots.held.withLock { $0.release(peer) } }) { io in
                let client = ClientState(id: numbers.next(), address: address, isLocal: local, idle: context.hub.makeSlot(),
                                         needsPassword: context.password != nil)
                return MPDConnection(server: context, client: client, io: io)
            }
        }
        self.listener.withLock { $0 = listener }
        // Looks for hung outputs once a second while a room plays (`Station.dropHungOutputs`),
        // between the blocking commands, so that it never replaces a player a `moveoutput` is
        // replacing.
        context.rooms.watchOutputs { look in
            context.runBlocking {
                guard !context.isStopping else { return }
                look()
            }
        }
    }

    /// Stops listening and closes every connection: the listener first (no more accepts), then
    /// the connections' loops.
    public func stop() {
        listener.withLock { $0 }?.stop()
        context.rooms.stopWatchingOutputs()
        context.finishBlockingWork()
        for loop in loops.withLock({ loops in defer { loops = [] }; return loops }) { loop.stop() }
    }

    /// The address at the other end of a TCP connection (nil when the kernel does not say).
    private static func remoteAddress(of socket: CInt) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
        }
        guard got == 0 else { return nil }
        switch CInt(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: storage) { SocketAddress($0.load(as: sockaddr_in.self)) }
        case AF_INET6:
            return withUnsafeBytes(of: storage) { SocketAddress($0.load(as: sockaddr_in6.self)) }
        default:
            return nil
        }
    }
}

public struct MPDServerError: Error, LocalizedError, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}

/// The connections held (`ConnectionSlots`), from any event loop.
private final class HeldSlots: Sendable {
    let held: Mutex<ConnectionSlots>
    init(_ slots: ConnectionSlots) { held = Mutex(slots) }
}

/// Numbers connections (for message subscriptions), from any event loop.
private final class ClientNumbers: Sendable {
    private let last = Atomic<Int>(0)
    func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}
