import Dispatch

/// Runs a task on a dispatch queue of its own, not on Swift's cooperative pool.
///
/// The pool has one thread per core, and work that blocks a thread (a synchronous wait, a
/// test function that is not async) can hold all of them. A task that something waits for
/// synchronously (a player's reader of its engine's events, which a quitting player waits up to
/// 2 s for) then cannot run, and the wait runs out. A serial queue made here gets a thread of
/// its own when the pool's are all busy.
public final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
