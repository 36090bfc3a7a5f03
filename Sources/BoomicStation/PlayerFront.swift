import BoomicAudio
import BoomicCore
import BoomicPlayback
import Dispatch
import Foundation
import Synchronization

/// What a terminal front does around its room, whatever it shows: follows the room's events
/// to the end of the queue, stops cleanly on SIGINT and SIGTERM, and quits the room (which
/// saves its state) on the way out. The front's own display comes in through `show`.
public final class PlayerFront: Sendable {
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

    private let display = Mutex<@Sendable (PlaybackEvent) -> Void>({ _ in })
    private let stopsAtSongEnd: Bool
    private let outcome = Mutex(Outcome())
    private let room = Mutex<RoomPlayer?>(nil)
    private let interrupted = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameter stopsAtSongEnd: the run ends when a song has played to its end (`--sleep end`).
    public init(stopsAtSongEnd: Bool = false) {
        self.stopsAtSongEnd = stopsAtSongEnd
    }

    /// `body` sees every event of the room, in order, on the room's thread: set it before the
    /// room is made, so that it sees the first.
    public func show(_ body: @escaping @Sendable (PlaybackEvent) -> Void) { display.withLock { $0 = body } }

    /// The room's events, from its first: hand this to the station as the room's `watch`.
    public func hear(_ event: PlaybackEvent) {
        display.withLock { $0 }(event)
        let stop = outcome.withLock { o -> Bool in
            switch event {
            case .started: o.playedAny = true
            case let .failed(error): o.failure = error; return true
            case .idle: return true
            case let .ended(end): return stopsAtSongEnd && end.reason == .finished
            case .warning: break
            }
            return false
        }
        if stop { finished.signal() }
    }

    /// The attached room's engine (for a display and its keys).
    public var engine: PlaybackEngine { room.withLock { $0 }!.engine }

    /// The front drives `room` from now on.
    public func attach(_ room: RoomPlayer) { self.room.withLock { $0 = room } }

    /// Follows the attached room until the queue ends, the output fails, a signal asks to stop
    /// or `stop`; then quits the room, which records the last play and saves the state.
    public func run() -> Outcome {
        let finished = finished
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
        finished.wait()
        let stopped = room.withLock { $0 }?.quit() ?? true
        for s in signals { s.cancel() }
        return outcome.withLock { o in
            o.interrupted = interrupted.load(ordering: .acquiring)
            o.outputLeftBehind = !stopped
            return o
        }
    }

    /// Ends `run` as the end of the queue would (a front's quit key).
    public func stop() { finished.signal() }
}
