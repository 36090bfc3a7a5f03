import BoomicCore
import BoomicLibrary
import Dispatch
import Foundation
import Synchronization

/// What the annotation, playlist, bookmark, play-queue and now-playing endpoints share for the
/// life of the front: the session's `Listening` (scrobbles, streams, now playing), the users'
/// `ListenerStateStore` (bookmarks, saved play queues) and the one serial queue their commits
/// and file writes run on.
///
/// Commits and writes are blocking work (SQLite's write lock, an fsync): they run on the queue,
/// never on a task of the pool or an event loop, one at a time as the MPD front's blocking
/// work does. Work handed to the queue runs to its end even when the client hangs up and its
/// request's task is cancelled: a star the client sent is committed whether or not the client
/// stays to hear the answer.
public final class AnnotationContext: Sendable {
    public let session: LibrarySession
    public let listening: Listening
    /// The users' file, opened when the front is made; a damaged file is the error every call
    /// that needs it answers (the library itself still serves).
    private let listeners: Result<ListenerStateStore, any Error>
    private let queue = DispatchQueue(label: "boomic.http.commits")
    private let settling = Mutex<Task<Void, Never>?>(nil)
    /// The time now, seconds since 1970 (tests pass their own).
    let now: @Sendable () -> Double

    public init(session: LibrarySession, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.session = session
        listening = Listening(session: session)
        listeners = Result { try ListenerStateStore(libraryLocation: session.location) }
        self.now = now
    }

    /// The users' bookmarks and play queues; the reason it cannot be read otherwise.
    func store() throws -> ListenerStateStore { try listeners.get() }

    /// Runs `body` on the commit queue and returns what it returned, or throws what it threw.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            queue.async { done.resume(with: Result { try body() }) }
        }
    }

    /// Starts the timer that commits the streamed plays no scrobble claimed
    /// (`Listening.settle`), every `interval` while the front runs.
    func startSettling(every interval: Duration = .seconds(60), warn: @escaping @Sendable (String) -> Void) {
        let task = Task.detached { [self] in
            while (try? await Task.sleep(for: interval)) != nil {
                do { _ = try await run { [self] in try listening.settle(at: now()) } } catch {
                    warn("cannot record a streamed play: \(error.localizedDescription)")
                }
            }
        }
        settling.withLock { old in
            old?.cancel()
            old = task
        }
    }

    /// Stops the timer; returns once it has stopped (a settle under way ends first).
    func stopSettling() async {
        guard let task = settling.withLock({ t -> Task<Void, Never>? in
            defer { t = nil }
            return t
        }) else { return }
        task.cancel()
        await task.value
    }
}
