import Foundation
import Glibc
import Synchronization

/// How many SIGUSR2 the test handler has caught.
let caughtSignals = Atomic<Int>(0)

/// Runs a blocking call on a thread of its own and keeps interrupting it with SIGUSR2, whose
/// handler is installed without SA_RESTART: the way a real handler (a terminal resize, a
/// timer, a debugger) makes the kernel end a blocking call with EINTR or a short count.
///
/// Tests that use it must be serialized: the handler and the signal count are process-wide.
enum Interrupter {
    private static let installed: Void = {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in caughtSignals.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0 // no SA_RESTART: interrupted calls fail with EINTR
        precondition(sigaction(SIGUSR2, &action, nil) == 0)
    }()

    /// Starts `body` on a new thread and returns once it runs, with a way to signal it.
    static func start(_ body: @escaping @Sendable () -> Void) -> Running {
        _ = installed
        let running = Running()
        let thread = Thread {
            // The test runner's threads may block signals; this one must receive SIGUSR2.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            running.thread.store(UInt(pthread_self()), ordering: .releasing)
            running.started.signal()
            body()
            running.done.store(true, ordering: .releasing)
            running.finished.signal()
            // Stay alive until joined: signalling a thread that has exited is undefined.
            running.mayExit.wait()
        }
        thread.start()
        running.started.wait()
        return running
    }

    final class Running: Sendable {
        let thread = Atomic<UInt>(0)
        let done = Atomic<Bool>(false)
        /// Signalled when the thread runs, when `body` has returned, and when it may end.
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let mayExit = DispatchSemaphore(value: 0)

        var isDone: Bool { done.load(ordering: .acquiring) }

        /// Sends one SIGUSR2 to the thread.
        func interrupt() {
            pthread_kill(pthread_t(thread.load(ordering: .acquiring)), SIGUSR2)
        }

        /// Interrupts it every millisecond or so for `milliseconds`, or until it is done: the
        /// millisecond between two signals is a wait for its end.
        func interrupt(for milliseconds: Int) {
            for _ in 0..<milliseconds where !isDone {
                interrupt()
                if finished.wait(timeout: .now() + .milliseconds(1)) == .success {
                    finished.signal() // for `join`
                    return
                }
            }
        }

        /// Waits (up to ten seconds) for it to finish; false if it did not.
        func join() -> Bool {
            guard finished.wait(timeout: .now() + 10) == .success else { return false }
            mayExit.signal()
            return true
        }
    }
}

/// A fresh folder, removed after `body`.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("boomic-system-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    return try body(dir)
}
