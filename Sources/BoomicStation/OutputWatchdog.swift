import Synchronization

/// Runs the station's look for hung outputs once a period while one could be hanging (a room
/// plays, or an output is in a call), and not at all otherwise: a station with nothing to play
/// is woken by nothing but its fronts and its changes. Whatever may start a call to an output
/// (a `player` or `outputs` change) wakes it with `wake`.
final class OutputWatchdog: Sendable {
    private struct State {
        var isArmed = true
        /// Counts the wakes: a wake between a tick's look at `isBusy` and its disarming keeps
        /// the watchdog armed, so a room that starts playing then is still watched.
        var wakes = 0
        var isStopped = false
    }

    private let state = Mutex(State())
    private let ticker: any WatchdogTicker
    private let look: @Sendable () -> Void
    private let isBusy: @Sendable () -> Bool

    /// Armed when made.
    /// - Parameters:
    ///   - ticker: what calls the look each period (a timer; a test's own hand).
    ///   - look: the look itself (it may queue its work elsewhere and return).
    ///   - isBusy: whether an output may be hanging now: false lets the watchdog sleep until
    ///     the next `wake`.
    init(ticker: any WatchdogTicker, look: @escaping @Sendable () -> Void, isBusy: @escaping @Sendable () -> Bool) {
        self.ticker = ticker
        self.look = look
        self.isBusy = isBusy
        // Weak: the ticker holds its handler until `stop`.
        ticker.start { [weak self] in self?.tick() }
    }

    private func tick() {
        // A tick the ticker had under way when a tick disarmed it looks no more.
        guard let wakes = state.withLock({ $0.isArmed ? $0.wakes : nil }) else { return }
        look()
        guard !isBusy() else { return }
        state.withLock { s in
            guard s.wakes == wakes, s.isArmed, !s.isStopped else { return }
            s.isArmed = false
            ticker.pause()
        }
    }

    /// Something that may start a call to an output happened: look again within a period.
    func wake() {
        state.withLock { s in
            s.wakes += 1
            guard !s.isArmed, !s.isStopped else { return }
            s.isArmed = true
            ticker.resume()
        }
    }

    /// Whether the next look is due within a period.
    var isArmed: Bool { state.withLock { $0.isArmed } }

    func stop() {
        state.withLock { s in
            s.isStopped = true
            ticker.stop()
        }
    }

    deinit { stop() }
}
