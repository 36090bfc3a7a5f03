import Foundation
import Synchronization

/// A value being made on a thread of its own; whoever needs it before it is ready waits.
///
/// `@unchecked Sendable`, and safe: `stored` is written once, before `isReady` is set with
/// release ordering, and read only after `isReady` was seen set with acquire ordering; it is
/// never written again. (A lock here cost a lock and a copy per song in a pass over the
/// library, from every event loop at once.)
final class Later<Value: Sendable>: @unchecked Sendable {
    private var stored: Value?
    private let isReady = Atomic<Bool>(false)
    private let ready = DispatchSemaphore(value: 0)

    /// A value there already.
    init(_ value: sending Value) {
        stored = value
        isReady.store(true, ordering: .releasing)
    }

    /// Starts making the value on a new thread.
    init(making: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            stored = making()
            isReady.store(true, ordering: .releasing)
            ready.signal()
        }
    }

    /// The value, once made.
    var value: Value {
        if !isReady.load(ordering: .acquiring) {
            // Each waiter passes the signal on to the next.
            ready.wait()
            ready.signal()
            precondition(isReady.load(ordering: .acquiring))
        }
        return stored!
    }
}
