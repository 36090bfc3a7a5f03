import Glibc
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM taken as a request, by work that must not stop in the middle of
/// a step: `boomic write` finishes the file in hand, records the files it wrote, and says so,
/// rather than ending with a copy left beside a file and nothing said. A second signal ends the
/// process at once, as the default action does.
public enum Interruption {
    /// The signal that asked, 0 while none has.
    fileprivate static let received = Atomic<Int32>(0)

    /// From now on, the first SIGINT or SIGTERM is only noted.
    public static func catchSignals() {
        _ = received.load(ordering: .relaxed) // made before a handler may touch it
        signal(SIGINT, noteSignal)
        signal(SIGTERM, noteSignal)
        // A parent may have started us with them blocked (a test runner does): unblocked on
        // this thread, they reach it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The signal received since `catchSignals`, if one was.
    public static var requested: Int32? {
        let s = received.load(ordering: .acquiring)
        return s == 0 ? nil : s
    }
}

/// The handler: only async-signal-safe calls (an atomic exchange, `signal`, `raise`).
private func noteSignal(_ number: Int32) {
    let first = Interruption.received.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing).exchanged
    if !first {
        signal(number, SIG_DFL)
        raise(number)
    }
}
