import Dispatch
import Synchronization

/// What calls the watchdog's look each period: a timer in a station, a test's hand in a test
/// (which then ticks when it chooses, and waits on no clock).
public protocol WatchdogTicker: Sendable {
    /// Calls `tick` once a period from now on, until `pause` or `stop`.
    func start(_ tick: @escaping @Sendable () -> Void)
    /// Ticks again, the first within a period.
    func resume()
    /// Ticks no more until `resume`.
    func pause()
    /// Ticks no more, and lets go of the handler.
    func stop()
}

/// A ticker on a dispatch timer.
public final class TimerTicker: WatchdogTicker {
    private let period: DispatchTimeInterval
    /// Kept under a lock: a timer is no `Sendable` of its own.
    private let timer: Mutex<any DispatchSourceTimer>

    public init(period: DispatchTimeInterval = .seconds(1), queue: DispatchQueue = .global(qos: .utility)) {
        self.period = period
        timer = Mutex(DispatchSource.makeTimerSource(queue: queue))
    }

    public func start(_ tick: @escaping @Sendable () -> Void) {
        timer.withLock { t in
            t.setEventHandler(handler: tick)
            t.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(250))
            t.resume()
        }
    }

    public func resume() {
        timer.withLock { $0.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(250)) }
    }

    public func pause() { timer.withLock { $0.schedule(deadline: .distantFuture, repeating: .never) } }

    public func stop() { timer.withLock { $0.cancel() } }
}
