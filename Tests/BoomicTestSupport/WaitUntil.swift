import Foundation

/// What a test waited for and did not see: thrown by `waitUntil`, so that the failure names the
/// awaited event and how long it was given.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let awaited: String
    public let timeout: Duration

    public var description: String { "timed out after \(timeout) waiting for \(awaited)" }
}

/// Returns as soon as `condition` holds, polling it every `every` until `timeout` has passed;
/// throws `WaitTimedOut` naming `what` when it never does.
///
/// This is the one way tests wait for another thread or process: on something it makes true (a
/// status field or version reached, a file appearing, a line printed, a process gone), never on a
/// fixed time. The deadline bounds a failure only: a passing wait takes as long as the event
/// takes, so it is generous (10 s) for loaded machines. `condition` is checked once more at the
/// deadline, so a wait that ends on it still sees the last state.
public func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10), every: Duration = .milliseconds(10),
                      _ condition: () throws -> Bool) throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try !condition() {
        guard clock.now < deadline else {
            if try condition() { return }
            throw WaitTimedOut(awaited: what(), timeout: timeout)
        }
        // The poll's pause: the only sleep a wait needs, between two looks at the event.
        Thread.sleep(forTimeInterval: Double(every.components.seconds) + Double(every.components.attoseconds) / 1e18)
    }
}

/// `waitUntil` for async tests: the pause between two looks is a task's, so a wait holds no
/// thread of the pool the code under test may need.
public func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10), every: Duration = .milliseconds(5),
                      _ condition: () throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try !condition() {
        guard clock.now < deadline else {
            if try condition() { return }
            throw WaitTimedOut(awaited: what(), timeout: timeout)
        }
        try await Task.sleep(for: every)
    }
}
