import BoomicAudio
import BoomicCore
import BoomicPlayback
import BoomicSystem
import Dispatch
import Foundation
import Synchronization

/// What every front does around an engine, whatever it shows: saves the state every few seconds
/// and on the way out, stops cleanly on SIGINT and SIGTERM, and follows the engine's events to
/// the end of the queue. The front's own display comes in through `show`.
public final class PlayerFront: Sendable {
    /// How often the position is saved while playing: the most a crash or power cut loses.
    public static let saveEvery: Duration = .seconds(5)

    public let engine: PlaybackEngine
    private let basis: DataBasis
    private let store: PlayerStateStore
    private let recorder: PlayRecorder?
    private let interrupted = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// How a run ended.
    public struct Outcome: Sendable {
        public var playedAny = false
        public var interrupted = false
        /// Why the output failed (a device that does not exist, a full disk).
        public var failure: AudioError?
        /// The output did not let go when the player quit (a device hung in a write): it was
        /// left behind so that the state could be saved and the program end.
        public var outputLeftBehind = false
    }

    /// - Parameter recorder: where plays go; nil records nothing (`--no-record`, `--as-of`).
    public init(engine: PlaybackEngine, basis: DataBasis, store: PlayerStateStore, recorder: PlayRecorder?) {
        self.engine = engine
        self.basis = basis
        self.store = store
        self.recorder = recorder
    }

    /// Follows the engine until the queue ends, the output fails or a signal asks to stop; saves
    /// the state on the way out. `show` sees every event first, on a background task.
    public func run(show: @escaping @Sendable (PlaybackEvent) -> Void = { _ in }) -> Outcome {
        let finished = finished
        let outcome = Mutex(Outcome())
        let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                interrupted.store(true, ordering: .releasing)
                finished.signal()
            }
            source.resume()
            return source
        }
        let saver = DispatchSource.makeTimerSource(queue: .global())
        saver.schedule(deadline: .now() + .seconds(5), repeating: .seconds(5))
        saver.setEventHandler { [self] in try? save(engine.status) }
        saver.resume()
        let events = engine.events
        let recorder = recorder, basis = basis
        recorder?.flushPending()
        // Saved at once, and again at every song's start: a crash before the first periodic save
        // leaves the queue to resume, and one after a song's play was committed resumes the
        // next song rather than the tail of that one. At once means once the engine has taken
        // the commands sent before `run` (`play`): its first status knows neither the entry
        // nor the play a resume goes on with, and saving that lost them.
        try? save(engine.perform([]))
        // One reader for the whole stream, to its end: the quit's own `ended` event (a bookmark)
        // comes after the run is over.
        let consumed = DispatchSemaphore(value: 0)
        // Off the cooperative pool, as this thread waits for it.
        Task.detached(executorPreference: QueueExecutor(label: "boomic.play.events")) {
            for await event in events {
                show(event)
                if case let .ended(end) = event, let recorder, let play = PlayRecorder.record(for: end, song: basis[end.song]) {
                    recorder.record(play)
                }
                if case .started = event { try? self.save(self.engine.status) }
                let stop = outcome.withLock { o -> Bool in
                    switch event {
                    case .started: o.playedAny = true
                    case let .failed(error): o.failure = error; return true
                    case .idle: return true
                    case .ended, .warning: break
                    }
                    return false
                }
                if stop { finished.signal() }
            }
            consumed.signal()
        }
        finished.wait()
        saver.cancel()
        let final = engine.quit()
        // An engine left behind on a hung output sends no more events.
        if engine.hasStopped { consumed.wait() }
        try? save(final)
        for s in signals { s.cancel() }
        return outcome.withLock { o in
            o.interrupted = interrupted.load(ordering: .acquiring)
            o.outputLeftBehind = !engine.hasStopped
            return o
        }
    }

    /// Ends `run` as the end of the queue would (a front's quit key).
    public func stop() { finished.signal() }

    /// Saves what `status` says: the queue, and where in which song.
    public func save(_ status: PlaybackStatus) throws {
        let song = status.entry.flatMap { status.queue.entry($0) }.flatMap { basis[$0.song] }
        try store.save(PlayerState(queue: status.queue, entry: status.entry, frame: status.frame, play: status.play, song: song,
                                   pending: recorder?.uncommitted ?? []))
    }
}
