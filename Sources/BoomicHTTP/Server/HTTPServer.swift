import Dispatch
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// `boomic serve --http`'s server: Hummingbird's HTTP/1.1 on its event loops, run by a task of
/// its own beside the MPD front, over one `HTTPContext`. `start` returns once it listens (or
/// with the reason it cannot); `stop` returns once every connection is closed.
public final class HTTPServer: Sendable {
    private let front: HTTPContext
    private let running = Mutex<(task: Task<Void, Never>, group: ServiceGroup)?>(nil)
    /// Set by `stop`: what Hummingbird logs as its task is cancelled is that stop, no error.
    private let stopping = StopFlag()

    public init(context: HTTPContext) {
        front = context
    }

    /// Listens on `address`; returns the port bound (the one asked for, or the system's choice
    /// for port 0).
    @discardableResult
    public func start(at address: HTTPAddress) async throws(HTTPServerError) -> Int {
        let warn = front.warn
        let stopping = stopping
        var logger = Logger(label: "boomic.http") { _ in
            WarnLogHandler { line in if !stopping.isSet { warn(line) } }
        }
        logger.logLevel = .error
        let (told, tell) = AsyncStream.makeStream(of: Result<Int, HTTPServerError>.self)
        let app = Application(
            router: HTTPRoutes.router(front),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "Boomic"),
            onServerRunning: { channel in tell.yield(.success(channel.localAddress?.port ?? address.port)) },
            logger: logger
        )
        let group = ServiceGroup(services: [app], logger: logger)
        let task = Task.detached {
            do {
                try await group.run()
            } catch {
                tell.yield(.failure(HTTPServerError("cannot serve HTTP on \(address): \(Self.reason(error))")))
            }
            tell.finish()
        }
        var outcome: Result<Int, HTTPServerError>?
        for await first in told {
            outcome = first
            break
        }
        switch outcome {
        case let .success(port)?:
            running.withLock { $0 = (task, group) }
            front.annotations.startSettling(warn: warn)
            return port
        case let .failure(error)?:
            await task.value
            throw error
        case nil:
            throw HTTPServerError("cannot serve HTTP on \(address)")
        }
    }

    /// Stops listening and closes the connections; returns when the server has stopped.
    ///
    /// A graceful shutdown first: the listener closes, idle connections close, the rooms' event
    /// streams end; then, after `shutdownPatience`, the task is cancelled, which ends what still
    /// runs (a long download). Cancelling while the listener is open would leave a connection
    /// the listener had accepted but not yet handed over, and NIO traps on it (a browser keeps
    /// such spare connections open).
    public func stop() async {
        guard let (task, group) = running.withLock({ r -> (task: Task<Void, Never>, group: ServiceGroup)? in
            defer { r = nil }
            return r
        }) else { return }
        stopping.set()
        front.roomFeed.endAll()
        await front.annotations.stopSettling()
        await group.triggerGracefulShutdown()
        let patience = Task {
            try? await Task.sleep(for: Self.shutdownPatience)
            task.cancel()
        }
        await task.value
        patience.cancel()
    }

    /// How long a graceful shutdown waits for answers under way before they are cut.
    static let shutdownPatience: Duration = .seconds(1)

    /// `start` for a caller outside Swift concurrency (the CLI's main thread): waits on a
    /// semaphore, which no task of the pool ever does.
    @discardableResult
    public func startWaiting(at address: HTTPAddress) throws(HTTPServerError) -> Int {
        let outcome = Mutex<Result<Int, HTTPServerError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(HTTPServerError) {
                let port = try await self.start(at: address)
                outcome.withLock { $0 = .success(port) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }

    /// `stop` for a caller outside Swift concurrency.
    public func stopWaiting() {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await self.stop()
            done.signal()
        }
        done.wait()
    }

    /// A bind failure's reason in a few words ("Address already in use").
    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }
}

/// A flag set once, read from any thread.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
