import Foundation

/// Polls `condition` until it holds or `timeout` passes: the tests wait on what they look at,
/// never on a fixed time.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let end = ContinuousClock.now + timeout
    while ContinuousClock.now < end {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}
