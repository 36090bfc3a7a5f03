import BoomicSystem
import Foundation
import Synchronization

/// Follows the commits other processes make to a library, for a long-lived front (`boomic
/// serve`): the session refreshes when the log's files change (inotify on the library folder),
/// and otherwise sleeps. A slow poll stays as the net for what inotify cannot see (another
/// host's writes on a network file system); without inotify it polls at `poll`.
///
/// A thread of its own, blocked in `poll(2)`: a 250 ms poll in a task would wake an idle server
/// four times a second for nothing, with a lock and a `stat` of the database each time.
public final class LibraryWatch: Sendable {
    private let directory: DirectoryWatch?
    private let cancelled = Flag()
    private let wake = DispatchSemaphore(value: 0)
    private let rests = Counter()

    /// How many times the watch has gone back to sleep after a refresh: a test that commits
    /// once this has moved knows the commit is seen by a wake, not by the refresh before it.
    public var sleeps: Int { rests.value }

    /// Whether changes are seen as they happen (inotify), not only at the next poll.
    public var isEventDriven: Bool { directory != nil }

    init(session: LibrarySession, poll: Duration, net: Duration, failed: @escaping @Sendable (any Error) -> Void) {
        let directory = DirectoryWatch(folder: session.location, namesStartingWith: "library.sqlite")
        self.directory = directory
        Thread.detachNewThread { [weak session, cancelled, wake, rests] in
            while !cancelled.isSet {
                // Held only while refreshing: a closed-and-dropped session ends the loop.
                guard let live = session else { return }
                do { try live.refresh() } catch {
                    if !cancelled.isSet { failed(error) }
                    return
                }
                rests.add()
                if let directory {
                    if directory.wait(timeout: net) == .cancelled { return }
                } else {
                    let (s, a) = poll.components
                    _ = wake.wait(timeout: .now() + .nanoseconds(Int(s) * 1_000_000_000 + Int(a / 1_000_000_000)))
                }
            }
        }
    }

    /// Stops following; returns at once (the thread ends on its own).
    public func cancel() {
        cancelled.set()
        directory?.cancel()
        wake.signal()
    }
}

/// A count threads share (an `Atomic` cannot be captured by a closure).
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func add() { count.add(1, ordering: .releasing) }
}

/// A flag threads share (an `Atomic` cannot be captured by a closure).
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
