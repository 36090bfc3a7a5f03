import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// `boomic serve`'s listener: accepts MPD clients on a TCP address or a local socket and gives
/// each its own conversation. One event loop per core: commands read immutable snapshots and
/// hand work to the player (shared state is behind locks), so clients on different loops never
/// wait for each other, and none holds its loop for long.
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
    /// The connections' loops.
    private let group: MultiThreadedEventLoopGroup
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
        group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
    }

    /// Starts listening; returns once clients can connect.
    public func start(at address: Address) throws(MPDServerError) {
        let listener = try Listener(address, backlog: 256)
        let (context, group, numbers, slots, judge) = (context, group, numbers, slots, judge)
        let local: Bool
        if case .unix = address { local = true } else { local = false }
        listener.run { socket in
            ClientBootstrap(group: group)
                .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
                // A client that shuts down its side still gets the answers to what it sent
                // (`MPDConnectionHandler`'s `inputEnded`).
                .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
                .channelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 256 * 1024))
                .channelInitializer { channel in
                    let peer = local ? .local : judge(channel.remoteAddress)
                    guard slots.held.withLock({ $0.admit(peer) }) else {
                        // Failed, not closed here: NIO closes a channel whose set-up failed, and
                        // registers one whose set-up succeeded (a closed one stopped its check).
                        return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                    }
                    channel.closeFuture.whenComplete { _ in slots.held.withLock { $0.release(peer) } }
                    let client = ClientState(id: numbers.next(), address: channel.remoteAddress?.description ?? "local",
                                             isLocal: local, idle: context.hub.makeSlot(), needsPassword: context.password != nil)
                    return channel.eventLoop.makeCompletedFuture {
                        let handler = MPDConnectionHandler(server: context, client: client)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .withConnectedSocket(socket)
                .whenFailure { _ in }  // closed by NIO: the client sees its connection end
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
        try? group.syncShutdownGracefully()
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
