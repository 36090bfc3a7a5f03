import BoomicCore
import BoomicPlayback
import Dispatch
import Foundation
import Synchronization

/// The one writer of a room's state file: every save (at the start, at each song's start, every
/// few seconds while the status moves, at the quit) runs on its serial queue and writes the
/// engine's newest status at the room's place, so a later save never carries an older status
/// than an earlier one.
///
/// The place saved is the room's (`RoomPlace`): a resumed play keeps its key and place until
/// its track starts, and a status running ahead of or behind the events the room has recorded
/// is not saved. A play is committed only after a save that holds it as pending and names its
/// song (with its key) or the one after it (`ended`): a crash after the commit resumes that same
/// play, which counts once, never an earlier place from which the song would start anew.
final class StateWriter: Sendable {
    /// How often the state is saved while the status moves: the most a crash or power cut loses.
    static let every: DispatchTimeInterval = .seconds(5)

    private struct State {
        var place: RoomPlace
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

    /// Called on the writer's queue with each state before it is written (tests hold a save
    /// there, as a slow disk does).
    private let saving: (@Sendable (PlayerState) -> Void)?

    init(store: PlayerStateStore, engine: PlaybackEngine, library: any StationLibrary, recorder: PlayRecorder?,
         resume: ResumePoint?, queue start: PlayQueue, keepsVolume: Bool, saving: (@Sendable (PlayerState) -> Void)? = nil) {
        self.saving = saving
        self.store = store
        self.engine = engine
        self.library = library
        self.recorder = recorder
        self.keepsVolume = keepsVolume
        state = Mutex(State(place: RoomPlace(queue: start, resume: resume)))
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

    /// The engine reported the start of `play`: saved, so that a crash resumes this song, not
    /// the tail of the one whose play was just committed.
    func started(_ play: PlayKey) {
        queue.async { [self] in
            state.withLock { $0.place.started(play) }
            write(onlyIfMoved: false)
        }
    }

    /// The engine went idle or failed: the status is saved as it is.
    func free() { queue.async { [self] in state.withLock { $0.place.free() } } }

    /// The engine reported the end of `play` of `entry`. With `record` (about to be committed),
    /// returns once a state holding it as pending and naming this play's song or the one after
    /// it is written, in order after every earlier save: the record is held by the recorder
    /// only together with that place, so no save holds one without the other.
    func ended(entry: PlayQueue.EntryID, play: PlayKey, record: PlayRecord?) {
        let note: @Sendable () -> Void = { [self] in state.withLock { $0.place.ended(entry, play: play) } }
        guard let record, let recorder else { return queue.async(execute: note) }
        queue.sync {
            note()
            recorder.hold(record)
            write(onlyIfMoved: false)
        }
    }

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
        let place: RoomPlace.Place? = state.withLock { s in
            if onlyIfMoved, let saved = s.saved, saved.version == version, saved.pending == pending { return nil }
            s.saved = (version, pending)
            return s.place.place(for: status)
        }
        guard let place else { return }
        let entry = place.entry, frame = place.frame, play = place.play
        let song = entry.flatMap { place.queue.entry($0) }.flatMap { library.basis[$0.song] }
        let saved = PlayerState(queue: place.queue, entry: entry, frame: frame, play: play, song: song,
                                pending: pending, volume: keepsVolume ? status.sound.volume : nil)
        saving?(saved)
        try? store.save(saved)
    }
}
