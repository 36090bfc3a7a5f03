@testable import BoomicStation
import Synchronization
import Testing

/// The watchdog looks for hung outputs while one may hang and sleeps otherwise: an idle station
/// is woken by nothing but its fronts and its changes. The tests tick it by hand.
@Suite struct OutputWatchdogTests {
    /// A ticker the test drives: `fire` ticks at once, on the test's thread, if armed.
    final class HandTicker: WatchdogTicker {
        private let state = Mutex<(tick: (@Sendable () -> Void)?, armed: Bool)>((nil, false))
        func start(_ tick: @escaping @Sendable () -> Void) { state.withLock { $0 = (tick, true) } }
        func resume() { state.withLock { $0.armed = true } }
        func pause() { state.withLock { $0.armed = false } }
        func stop() { state.withLock { $0 = (nil, false) } }
        var isArmed: Bool { state.withLock { $0.armed } }
        /// A tick, if the ticker is armed; whether it ticked.
        @discardableResult func fire() -> Bool {
            guard let tick = state.withLock({ $0.armed ? $0.tick : nil }) else { return false }
            tick()
            return true
        }
    }

    /// What a watchdog did: its looks, and what `isBusy` answers (and does) when asked.
    final class Probe: Sendable {
        let looks = Atomic<Int>(0)
        let busy = Atomic<Bool>(false)
        /// Run once when `isBusy` is next asked, between the look and the watchdog's disarming.
        let onAsk = Mutex<(@Sendable () -> Void)?>(nil)
        let ticker = HandTicker()

        func watchdog() -> OutputWatchdog {
            OutputWatchdog(ticker: ticker, look: { self.looks.add(1, ordering: .relaxed) }, isBusy: {
                self.onAsk.withLock { body in defer { body = nil }; return body }?()
                return self.busy.load(ordering: .relaxed)
            })
        }

        var lookCount: Int { looks.load(ordering: .relaxed) }
    }

    @Test func looksOverAndOverWhileAnOutputMayHang() {
        let probe = Probe()
        probe.busy.store(true, ordering: .relaxed)
        let watchdog = probe.watchdog()
        defer { watchdog.stop() }
        for _ in 0..<5 { #expect(probe.ticker.fire()) }
        #expect(probe.lookCount == 5)
        #expect(watchdog.isArmed && probe.ticker.isArmed)
    }

    @Test func sleepsOnceNothingMayHang() {
        let probe = Probe()
        let watchdog = probe.watchdog()
        defer { watchdog.stop() }
        #expect(probe.ticker.fire())
        #expect(!watchdog.isArmed && !probe.ticker.isArmed, "one look that finds nothing busy puts it to sleep")
        #expect(!probe.ticker.fire())
        #expect(probe.lookCount == 1)
    }

    @Test func aWakeMakesItLookAgainUntilNothingMayHang() {
        let probe = Probe()
        let watchdog = probe.watchdog()
        defer { watchdog.stop() }
        probe.ticker.fire()
        #expect(!watchdog.isArmed)
        probe.busy.store(true, ordering: .relaxed)
        watchdog.wake()
        #expect(watchdog.isArmed && probe.ticker.isArmed)
        for _ in 0..<3 { probe.ticker.fire() }
        #expect(probe.lookCount == 4)
        probe.busy.store(false, ordering: .relaxed)
        probe.ticker.fire()
        #expect(!watchdog.isArmed && !probe.ticker.isArmed)
    }

    /// A wake that comes after a tick's look but before it found nothing busy (a room started
    /// playing then) keeps the watchdog armed, so the room is still watched.
    @Test func aWakeDuringATickIsNotLost() {
        let probe = Probe()
        let watchdog = probe.watchdog()
        defer { watchdog.stop() }
        probe.onAsk.withLock { $0 = { watchdog.wake() } }
        probe.ticker.fire()
        #expect(watchdog.isArmed, "woken while it asked: it stays armed")
        probe.ticker.fire()
        #expect(!watchdog.isArmed, "the tick after the woken one sleeps")
        #expect(probe.lookCount == 2)
    }

    @Test func aStoppedWatchdogIsWokenByNothing() {
        let probe = Probe()
        let watchdog = probe.watchdog()
        probe.ticker.fire()
        watchdog.stop()
        watchdog.wake()
        #expect(!probe.ticker.fire() && probe.lookCount == 1)
    }
}
