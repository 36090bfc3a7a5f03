import BoomicCore
import Dispatch
import Synchronization

/// What the engine object and its decode thread share: the queue, which a front changes at once
/// on its own thread, the player's commands waiting for the decode thread, and the status.
///
/// One lock guards it all, so that a front's change and the decode thread's own moves (a song
/// finished, the queue stopped) never interleave: the decode thread makes a move only when it
/// has taken every change a front made before it (`generation`).
@usableFromInline final class EngineChannel: Sendable {
    /// A command that needs the decode thread (a seek, the sound, the sleep timer), with the
    /// queue as it stood when it was given: the thread takes the queue up to there first, so
    /// that `play 3` then `seek 20` seeks in song 3.
    struct Work: Sendable {
        let command: PlaybackCommand
        let queue: PlayQueue
    }

    struct Shared: Sendable {
        /// The queue, as fronts see it and the decode thread plays it once it has caught up.
        var queue: PlayQueue
        /// Counts the fronts' changes (queue edits, work, the quit): the decode thread has
        /// caught up when it has seen this one.
        var generation = 0
        /// The generation the decode thread took last (a test's sync point: its turn came), and
        /// the last it published a status for, a turn done with every change before it.
        var taken = 0
        var published = 0
        /// Fronts waiting for the decode thread to publish a generation (`statusCaughtUp`).
        var waiters: [(generation: Int, done: DispatchSemaphore)] = []
        var work: [Work] = []
        /// `play` was asked since the decode thread last looked (it may not change the queue).
        var playAsked = false
        var quit = false
        /// Set with `quit`: nothing more is taken.
        var closed = false
        var status: PlaybackStatus
        /// The decode thread's last failure, shown while the queue is stopped.
        var failure: PlaybackFailure?
    }

    let shared: Mutex<Shared>
    /// Counts changes of `shared.status`.
    @usableFromInline let version = Atomic<Int>(0)
    /// Set when the decode thread has published its first status: before it, the status is the
    /// queue and the sound the engine was given, with no place in a song.
    let tookFirstTurn = Atomic<Bool>(false)
    /// Signalled when the decode thread has finished.
    let done = DispatchSemaphore(value: 0)
    /// Set just before `done` is first signalled.
    let finished = Atomic<Bool>(false)
    /// `running`, `finished` or `leftBehind`: the quit that gives up on the thread and the
    /// thread's own end settle which came first, so it is counted out exactly once.
    let lifecycle = Atomic<Int>(Lifecycle.running)
    let threads: LeftBehindThreads

    enum Lifecycle {
        static let running = 0, finished = 1, leftBehind = 2
    }

    init(status: PlaybackStatus, threads: LeftBehindThreads) {
        shared = Mutex(Shared(queue: status.queue, status: status))
        self.threads = threads
    }

    /// Publishes `status` when it differs from the one published (the lock held).
    func publish(_ status: PlaybackStatus, in shared: inout Shared) {
        guard status != shared.status else { return }
        shared.status = status
        // After the store: a front that reads this version then the status sees at least it.
        version.add(1, ordering: .releasing)
    }

    /// Carries out `commands` on the queue at once and records those that need the decode
    /// thread (with the queue as it stood when they came); the status with their effect, or nil
    /// once the engine has quit. The decode thread catches up when it is free; `heardAtOnce`
    /// runs under the lock with the queue's new state, for what the output thread is told
    /// without waiting for it (a pause, the volume).
    func take(_ commands: [PlaybackCommand], heardAtOnce: (PlayQueue.State, SoundSettings?) -> Void) -> PlaybackStatus? {
        shared.withLock { s -> PlaybackStatus? in
            guard !s.closed else { return nil }
            guard !commands.isEmpty else { return s.status }
            var status = s.status
            for command in commands {
                let before = s.queue
                switch command {
                case let .queue(c):
                    if case .play = c { s.playAsked = true }
                    s.queue.apply(c)
                case .previous:
                    // How far in, as last heard: past 3 s the song restarts, else the one before.
                    s.queue.apply(.previous(elapsed: status.position))
                case let .sound(given):
                    status.sound = given
                    s.work.append(Work(command: command, queue: s.queue))
                case let .seek(to: seconds):
                    Self.showSeek(to: seconds, in: &status, playing: s.queue.state != .stopped)
                    s.work.append(Work(command: command, queue: s.queue))
                case let .seekBy(delta):
                    Self.showSeek(to: status.position + delta, in: &status, playing: s.queue.state != .stopped)
                    s.work.append(Work(command: command, queue: s.queue))
                case .sleep:
                    s.work.append(Work(command: command, queue: s.queue))
                }
                let moved = s.queue.current != before.current || s.queue.starts != before.starts
                if moved || (s.queue.state == .stopped && before.state != .stopped) {
                    // What the decode thread shows once it has thrown the song away: the queue's
                    // entry, from its start, until the song it opens says more.
                    status.entry = s.queue.current
                    status.play = nil
                    status.position = 0
                    status.frame = 0
                    status.duration = nil
                    status.sourceFormat = nil
                }
            }
            s.generation += 1
            status.queue = s.queue
            status.failure = s.queue.state == .stopped ? s.failure : nil
            publish(status, in: &s)
            var sound: SoundSettings?
            for case let .sound(given) in commands { sound = given }
            heardAtOnce(s.queue.state, sound)
            return s.status
        }
    }

    /// A seek as the status shows it at once, as MPD's does: the position asked (within the
    /// song, when its length is known), and the frame of the file there when the song is open
    /// (else the decode thread tells it once it has opened the song: `play 3` then `seek 20`).
    static func showSeek(to seconds: Double, in status: inout PlaybackStatus, playing: Bool) {
        guard playing, status.entry != nil else { return }
        let target = min(max(0, seconds.isNaN ? 0 : seconds), status.duration ?? .infinity)
        if let rate = status.sourceFormat.map({ Double($0.sampleRate) }) {
            let first = status.frame - HeardTime.frame(at: status.position, rate: rate)
            status.frame = first + HeardTime.frame(at: target, rate: rate)
        }
        status.position = target
    }

    /// The decode thread published a turn done with every change up to `generation` (the lock
    /// held): the fronts waiting for it go on.
    func caughtUp(_ generation: Int, in shared: inout Shared) {
        shared.published = generation
        guard !shared.waiters.isEmpty else { return }
        shared.waiters.removeAll { waiter in
            guard waiter.generation <= generation else { return false }
            waiter.done.signal()
            return true
        }
    }

    /// Waits up to `patience` for the decode thread to publish a turn done with every change
    /// made so far; that status, or nil when it did not (busy, or quit).
    func statusCaughtUp(within patience: DispatchTimeInterval) -> PlaybackStatus? {
        let done = DispatchSemaphore(value: 0)
        let wanted = shared.withLock { s -> Int? in
            guard s.published < s.generation else { return nil }
            s.waiters.append((s.generation, done))
            return s.generation
        }
        guard let wanted else { return shared.withLock(\.status) }
        guard !finished.load(ordering: .acquiring), done.wait(timeout: .now() + patience) == .success else {
            return shared.withLock { s in
                s.waiters.removeAll { $0.done === done }
                return s.published >= wanted ? s.status : nil
            }
        }
        return shared.withLock(\.status)
    }

    /// Asks the decode thread to quit; nothing more is taken.
    func askQuit() {
        shared.withLock { s in
            s.quit = true
            s.closed = true
            s.generation += 1
        }
    }

    /// The decode thread has finished: counted out of the threads left behind if it was one.
    func threadFinished() {
        if lifecycle.exchange(Lifecycle.finished, ordering: .acquiringAndReleasing) == Lifecycle.leftBehind {
            threads.reclaim()
        }
        finished.store(true, ordering: .releasing)
        shared.withLock { s in
            for waiter in s.waiters { waiter.done.signal() }
            s.waiters.removeAll()
        }
        done.signal()
    }

    /// A quit gave up waiting for the thread: counted as left behind until it finishes.
    func leaveBehind() {
        if lifecycle.compareExchange(expected: Lifecycle.running, desired: Lifecycle.leftBehind,
                                     ordering: .acquiringAndReleasing).exchanged {
            threads.leave()
        }
    }
}
