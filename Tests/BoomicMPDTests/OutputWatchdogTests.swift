import Foundation
@testable import BoomicMPD
import Synchronization
import Testing

/// The watchdog looks for hung outputs while one may hang and sleeps otherwise: an idle server
/// is woken by nothing but its clients and its changes.
@Suite struct OutputWatchdogTests {
    /// What a watchdog did: its looks, and what `isBusy` answers (and does) when asked.
    final class Probe: Sendable {
        let looks = Atomic<Int>(0)
        let busy = Atomic<Bool>(false)
        let asked = Atomic<Int>(0)
        /// Run once when `isBusy` is next asked, between the look and the watchdog's disarming.
        let onAsk = Mutex<(@Sendable () -> Void)?>(nil)

        func watchdog() -> OutputWatchdog {
            OutputWatchdog(period: .milliseconds(10), look: { self.looks.add(1, ordering: .relaxed) }, isBusy: {
                self.asked.add(1, ordering: .relaxed)
                self.onAsk.withLock { body in defer { body = nil }; return body }?()
                return self.busy.load(ordering: .relaxed)
            })
        }

        var lookCount: Int { looks.load(ordering: .relaxed) }
    }

    static func waitUntil(_ condition: () -> Bool) -> Bool {
        let end = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < end {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }

    @Test func looksOverAndOverWhileAnOutputMayHang() {
        let probe = Probe()
        probe.busy.store(true, ordering: .relaxed)
        let watchdog = probe.watchdog()
        defer { watchdog.stop() }
        #expect(Self.waitUntil { probe.lookCount >= 5 })
        #expect(watchdog.isArmed)
    }

    @Test func sleepsOnceNothingMayHang() {
        let probe = Probe()
        let watchdog = probe.watchdog()
        defer { watchdog.stop() }
        #expect(Self.waitUntil { !watchdog.isArmed })
        usleep(20_000)  // a tick under way when it disarmed ends
        let looks = probe.lookCount
        usleep(100_000)  // ten periods
        #expect(probe.lookCount == looks, "looked \(probe.lookCount - looks) times more while asleep")
    }

    @Test func aWakeMakesItLookAgainUntilNothingMayHang() {
        let probe = Probe()
        let watchdog = probe.watchdog()
        defer { watchdog.stop() }
        #expect(Self.waitUntil { !watchdog.isArmed })
        probe.busy.store(true, ordering: .relaxed)
        watchdog.wake()
        #expect(watchdog.isArmed)
        let looks = probe.lookCount
        #expect(Self.waitUntil { probe.lookCount >= looks + 3 })
        probe.busy.store(false, ordering: .relaxed)
        #expect(Self.waitUntil { !watchdog.isArmed })
    }

    /// A wake that comes after a tick's look but before it found nothing busy (a room started
    /// playing then) keeps the watchdog armed, so the room is still watched.
    @Test func aWakeDuringATickIsNotLost() {
        let probe = Probe()
        let wakeBox = Mutex<OutputWatchdog?>(nil)
        probe.onAsk.withLock {
            $0 = {
                // The first tick may come before the test has the watchdog in hand.
                while wakeBox.withLock({ $0 }) == nil { usleep(100) }
                wakeBox.withLock { $0 }?.wake()
            }
        }
        // Armed when made: the first tick asks, is woken while asking, and stays armed.
        let watchdog = probe.watchdog()
        wakeBox.withLock { $0 = watchdog }
        defer { watchdog.stop() }
        #expect(Self.waitUntil { probe.asked.load(ordering: .relaxed) >= 1 })
        #expect(Self.waitUntil { !watchdog.isArmed }, "the tick after the woken one sleeps")
        #expect(probe.lookCount >= 2, "the woken watchdog looked again: \(probe.lookCount)")
    }
}
