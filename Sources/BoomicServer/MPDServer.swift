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
    /// hold file descriptors and memory without end. MPD's default is 100; people run more
    /// clients than that against Boomic's tests (200), and nobody a thousand.
    public static let maxConnections = 1024

    private let context: ServerContext
    /// The connections' loops.
    private let group: MultiThreadedEventLoopGroup
    /// The listener's own loop: at a stop, a connection accepted just before the listener
    /// closed finishes its set-up on `group`, which then hops back here; with one group for
    /// both, that hop could find the listener's loop already shut down (NIO: "Cannot schedule
    /// tasks on an EventLoop that has already shut down", a crash in its strict mode).
    private let acceptor: MultiThreadedEventLoopGroup
    private let channel = Mutex<(any Channel)?>(nil)
    private let numbers = ClientNumbers()

    public init(context: ServerContext) {
        self.context = context
        group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        acceptor = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Starts listening; returns once clients can connect.
    public func start(at address: Address) throws(MPDServerError) {
        let context = context
        let local: Bool
        if case .unix = address { local = true } else { local = false }
        let bootstrap = ServerBootstrap(group: acceptor, childGroup: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [numbers] channel in
                let open = numbers.opened()
                channel.closeFuture.whenComplete { _ in numbers.closed() }
                guard open <= Self.maxConnections else {
                    return channel.close()
                }
                let id = numbers.next()
                let client = ClientState(id: id, address: channel.remoteAddress?.description ?? "local", isLocal: local,
                                         idle: context.hub.makeSlot(), needsPassword: context.password != nil)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(MPDConnectionHandler(server: context, client: client))
                }
            }
            .childChannelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 256 * 1024))
        do {
            let bound: any Channel
            switch address {
            case let .tcp(host, port): bound = try bootstrap.bind(host: host, port: port).wait()
            case let .unix(path): bound = try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
            }
            channel.withLock { $0 = bound }
        } catch let error as IOError {
            let hint = error.errnoCode == EADDRINUSE ? " (is MPD or another boomic serve there? pick another with --bind)" : ""
            throw MPDServerError("cannot listen on \(address): \(String(cString: strerror(error.errnoCode)))\(hint)")
        } catch {
            throw MPDServerError("cannot listen on \(address): \(error)")
        }
    }

    /// Stops listening and closes every connection: the listener first (no more accepts), then
    /// the connections' loops (what the last accepts scheduled there still runs, and may hop
    /// back to the listener's loop, still up), then the listener's loop.
    public func stop() {
        if let c = channel.withLock({ $0 }) { try? c.close().wait() }
        try? group.syncShutdownGracefully()
        try? acceptor.syncShutdownGracefully()
    }
}

public struct MPDServerError: Error, LocalizedError, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}

/// Numbers connections (for message subscriptions) and counts those open, from any event loop.
private final class ClientNumbers: Sendable {
    private let last = Atomic<Int>(0)
    private let open = Atomic<Int>(0)
    func next() -> Int { last.add(1, ordering: .relaxed).newValue }
    /// The count of open connections with this one.
    func opened() -> Int { open.add(1, ordering: .relaxed).newValue }
    func closed() { open.subtract(1, ordering: .relaxed) }
}
