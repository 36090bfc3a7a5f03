import Dispatch
import Synchronization

/// Runs the server's look for hung outputs once a second while one could be hanging (a room
/// plays, or an output is in a call), and not at all otherwise: it ticked every second
/// forever, a wake and a hop to the blocking queue in a server with nothing to play.
/// Whatever may start a call to an output (a `player` or `output` change) wakes it with `wake`.
final class OutputWatchdog: Sendable {
    private struct State {
        /// Kept under the lock: a timer is no `Sendable` of its own.
        let timer: any DispatchSourceTimer
        var isArmed = true
        /// Counts the wakes: a wake between a tick's look at `isBusy` and its disarming keeps
        /// the watchdog armed, so a room that starts playing then is still watched.
        var wakes = 0
        var isStopped = false
    }

    private let state: Mutex<State>
    private let period: DispatchTimeInterval
    private let look: @Sendable () -> Void
    private let isBusy: @Sendable () -> Bool

    /// - Parameters:
    ///   - look: the look itself (it may queue its work elsewhere and return).
    ///   - isBusy: whether an output may be hanging now: false lets the watchdog sleep until
    ///     the next `wake`.
    init(period: DispatchTimeInterval = .seconds(1), queue: DispatchQueue = .global(qos: .utility),
         look: @escaping @Sendable () -> Void, isBusy: @escaping @Sendable () -> Bool) {
        self.period = period
        self.look = look
        self.isBusy = isBusy
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(250))
        state = Mutex(State(timer: timer))
        state.withLock { s in
            // Weak: the timer holds its handler until `stop` cancels it.
            s.timer.setEventHandler { [weak self] in self?.tick() }
            s.timer.resume()
        }
    }

    private func tick() {
        // A fire the timer had pending when a tick disarmed it looks no more.
        guard let wakes = state.withLock({ $0.isArmed ? $0.wakes : nil }) else { return }
        look()
        guard !isBusy() else { return }
        state.withLock { s in
            guard s.wakes == wakes, s.isArmed, !s.isStopped else { return }
            s.isArmed = false
            s.timer.schedule(deadline: .distantFuture, repeating: .never)
        }
    }

    /// Something that may start a call to an output happened: look again within a period.
    func wake() {
        state.withLock { s in
            s.wakes += 1
            guard !s.isArmed, !s.isStopped else { return }
            s.isArmed = true
            s.timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(250))
        }
    }

    /// Whether the next look is due within a period (for tests).
    var isArmed: Bool { state.withLock { $0.isArmed } }

    func stop() {
        state.withLock { s in
            s.isStopped = true
            s.timer.cancel()
        }
    }

    deinit { stop() }
}
