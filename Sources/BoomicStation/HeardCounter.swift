import Synchronization

/// Seconds heard, added from the engine's `ended` events.
final class HeardCounter: Sendable {
    private let milliseconds = Atomic<Int>(0)
    func add(_ seconds: Double) { milliseconds.add(Int(seconds * 1000), ordering: .relaxed) }
    var seconds: Int { milliseconds.load(ordering: .relaxed) / 1000 }
}
