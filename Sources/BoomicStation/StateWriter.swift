import BoomicCore
import BoomicPlayback
import Dispatch
import Foundation
import Synchronization

/// The one writer of a room's state file: every save (at the start, at each song's start, every
/// few seconds while the status moves, at the quit) runs on its serial queue and writes the
/// engine's newest status, so a later save never carries an older status than an earlier one.
///
/// A resumed play keeps its key and place until its track starts: before that, the engine's
/// status names no entry, or the queue's current one with no play and no frame (the track is
/// still being opened), and a save of that would make the resumed song a new play, counted again.
final class StateWriter: Sendable {
    /// How often the state is saved while the status moves: the most a crash or power cut loses.
    static let every: DispatchTimeInterval = .seconds(5)

    private struct State {
        /// The saved place, until the engine reports its first event of the run.
        var resume: ResumePoint?
        /// What the last save wrote, so an unchanged status is not written again (an idle
        /// server writes nothing: an SD card's wear on a Pi).
        var saved: (version: Int, pending: [PlayRecord])?
        var timer: (any DispatchSourceTimer)?
    }

    private let queue = DispatchQueue(label: "boomic.station.state")
    private let state: Mutex<State>
    private let store: PlayerStateStore
    private let engine: PlaybackEngine
    private let library: any StationLibrary
    private let recorder: PlayRecorder?
    private let keepsVolume: Bool

    init(store: PlayerStateStore, engine: PlaybackEngine, library: any StationLibrary, recorder: PlayRecorder?,
         resume: ResumePoint?, keepsVolume: Bool) {
        self.store = store
        self.engine = engine
        self.library = library
        self.recorder = recorder
        self.keepsVolume = keepsVolume
        state = Mutex(State(resume: resume))
    }

    /// Saves every `every` while the status moves, until `stop`.
    func startSaving() {
        let queue = queue
        state.withLock { s in
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + Self.every, repeating: Self.every, leeway: .milliseconds(500))
            timer.setEventHandler { [weak self] in self?.write(onlyIfMoved: true) }
            timer.resume()
            s.timer = timer
        }
    }

    /// Saves soon, in order with every other save.
    func save() { queue.async { [self] in write(onlyIfMoved: false) } }

    /// The engine reported the run's first event: its status names the play under way from now on.
    func started() {
        queue.async { [self] in
            state.withLock { $0.resume = nil }
            write(onlyIfMoved: false)
        }
    }

    /// The engine moved past the resumed entry without starting it (an event other than `started`).
    func forgetResume() { queue.async { [self] in state.withLock { $0.resume = nil } } }

    /// Stops the periodic save and saves once more, returning when it is written.
    func finish() {
        state.withLock { s in
            s.timer?.cancel()
            s.timer = nil
        }
        queue.sync { write(onlyIfMoved: false) }
    }

    /// Saves now and returns when it is written (tests, a front's own moment).
    func saveNow() { queue.sync { write(onlyIfMoved: false) } }

    private func write(onlyIfMoved: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        // Before the engine's first turn its status is the queue it was given with default
        // sound and no place: the file (the saved state, or none) says more than that.
        guard engine.hasTakenFirstTurn else { return }
        let version = engine.statusVersion
        let status = engine.status
        let pending = recorder?.uncommitted ?? []
        let look: (moved: Bool, resume: ResumePoint?) = state.withLock { s in
            if onlyIfMoved, let saved = s.saved, saved.version == version, saved.pending == pending { return (false, nil) }
            s.saved = (version, pending)
            return (true, s.resume)
        }
        guard look.moved else { return }
        var entry = status.entry, frame = status.frame, play = status.play
        if let resume = look.resume, status.play == nil, entry == nil || entry == resume.entry,
           status.queue.entry(resume.entry) != nil {
            entry = resume.entry
            frame = resume.frame
            play = resume.play
        }
        let song = entry.flatMap { status.queue.entry($0) }.flatMap { library.basis[$0.song] }
        try? store.save(PlayerState(queue: status.queue, entry: entry, frame: frame, play: play, song: song,
                                    pending: pending, volume: keepsVolume ? status.sound.volume : nil))
    }
}
