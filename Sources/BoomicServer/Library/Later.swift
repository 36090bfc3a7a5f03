import Foundation
import Synchronization

/// A value being made on a thread of its own; whoever needs it before it is ready waits.
final class Later<Value: Sendable>: Sendable {
    private let made: Mutex<Value?>
    private let ready = DispatchSemaphore(value: 0)

    /// A value there already.
    init(_ value: sending Value) {
        made = Mutex(value)
    }

    /// Starts making the value on a new thread.
    init(making: @escaping @Sendable () -> Value) {
        made = Mutex(nil)
        Thread.detachNewThread { [self] in
            let value = making()
            made.withLock { $0 = value }
            ready.signal()
        }
    }

    /// The value, once made.
    var value: Value {
        if let value = made.withLock({ $0 }) { return value }
        // Each waiter passes the signal on to the next.
        ready.wait()
        ready.signal()
        return made.withLock { $0! }
    }
}
