import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicSystem
import Foundation
import Synchronization

/// A room's player: an engine on the room's output, started from the saved state or a given
/// queue, its plays recorded by the player's rule, its state written by one ordered writer, and
/// its changes told once, in order, by one teller (`RoomTeller`).
public final class RoomPlayer: Sendable {
    public let engine: PlaybackEngine
    /// The room this player plays in.
    public let room: String
    private let writer: StateWriter
    private let recorder: PlayRecorder?
    private let teller: RoomTeller
    private let warn: @Sendable (String) -> Void
    private let following: Task<Void, Never>
    /// Signalled when `following` has taken the engine's last event (its stream ends after
    /// `quit`): the play of the song the quit stopped is recorded before the state is saved.
    private let drained = DispatchSemaphore(value: 0)
    /// What this player has played since it started (MPD's `playtime`).
    private let heard: HeardCounter
    /// Told each engine event, in order, after the room has recorded it (a terminal's display).
    private let watchers: EventWatchers
    /// The serial of the last failure a front cleared (MPD's `clearerror`): a front shows only a
    /// later one.
    public let clearedFailure = Atomic<Int>(0)
    /// Set by `quit`: the engine is gone, nothing more is sent to it.
    private let quitted = Atomic<Bool>(false)
    /// Signalled when the quit has saved (and again by each who waited for it).
    private let quitDone = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - first: commands carried out before the room plays (a sleep timer counts from the
    ///     first sample).
    ///   - watch: told each event from the first on.
    ///   - tell: the room's changes, in order (`RoomTeller`).
    ///   - opening: called on the player's thread as it resolves a song to open (tests hold it
    ///     there, as a sleeping disk holds the open).
    ///   - saving: called on the state writer's queue with each state before it is written
    ///     (tests hold a save there, as a slow disk does).
    init(library: any StationLibrary, store: PlayerStateStore, start: RoomStart, first: [PlaybackCommand] = [],
         sink: sending any AudioSink, settings: RoomSettings, room: String,
         watch: (@Sendable (PlaybackEvent) -> Void)? = nil,
         tell: @escaping @Sendable (RoomChange) -> Void,
         opening: (@Sendable (SongID) -> Void)? = nil, saving: (@Sendable (PlayerState) -> Void)? = nil,
         warn: @escaping @Sendable (String) -> Void) {
        self.room = room
        self.warn = warn
        let basis = library.basis
        let saved = try? store.load()
        var queue: PlayQueue
        var resume: ResumePoint?
        let plays: Bool
        switch start {
        case let .queue(given):
            queue = given
            plays = true
        case .asSaved, .resumed:
            queue = saved?.queue ?? PlayQueue(seed: UInt64.random(in: 0...UInt64.max))
            resume = saved?.resumePoint(in: basis)
            if case .resumed = start { plays = true } else { plays = queue.state == .playing }
        }
        // Playing starts once everything is set up; paused comes back paused at its place, as
        // MPD restores it (the engine prepares the song and holds the output).
        let startQueue = queue // as saved or given: a crash image keeps its state
        if plays || resume == nil { queue.apply(.stop) }
        var sound = settings.sound
        if settings.keepsVolume, let volume = saved?.volume { sound.volume = min(max(volume, 0), 100) }
        let speedGiven = settings.speedGiven
        engine = PlaybackEngine(queue: queue, resume: resume, sink: sink, realtime: settings.realtime, sound: sound) { id in
            opening?(id)
            return library.basis[id].map { song in
                // An audiobook starts where it was left, at the speed it was left at unless the
                // front was given one; a CUE track's bookmark counts from its part's start.
                let bookmark = song.remembersPosition ? song.bookmarkValue : nil
                return PlayableSong(id: song.id, path: song.path, startAt: song.startSeconds(bookmark: bookmark?.position),
                                    replayGain: ReplayGainTags(song), speed: speedGiven ? nil : bookmark?.speed,
                                    duration: song.duration, range: song.playRange)
            }
        }
        let engine = engine
        let recorder = settings.record ? PlayRecorder(session: library.session, pending: saved?.pending ?? [], warn: warn) : nil
        self.recorder = recorder
        let writer = StateWriter(store: store, engine: engine, library: library, recorder: recorder, resume: resume,
                                 queue: startQueue, keepsVolume: settings.keepsVolume, saving: saving)
        self.writer = writer
        let teller = RoomTeller(status: { engine.status }, tell: tell)
        self.teller = teller
        let heard = HeardCounter()
        self.heard = heard
        let watchers = EventWatchers(watch.map { [$0] } ?? [])
        self.watchers = watchers
        recorder?.flushPending()
        let events = engine.events
        let drained = drained
        let warnsEvents = settings.warnsEvents
        // Off the cooperative pool: `quit` waits for this task on a thread that may be the pool's.
        following = Task.detached(executorPreference: QueueExecutor(label: "boomic.station.room-events")) {
            defer { drained.signal() }
            for await event in events {
                switch event {
                case let .ended(end):
                    heard.add(end.heard)
                    // Saved before it is committed, holding the play and naming this song (or
                    // the one after it): after a crash the room resumes this play, counted once
                    // by its key, never an earlier place that would start it anew.
                    let play = recorder == nil ? nil : PlayRecorder.record(for: end, song: library.basis[end.song])
                    writer.ended(entry: end.entry, play: end.key, record: play)
                    if play != nil { recorder?.commitHeld() }
                case let .warning(message):
                    if warnsEvents { warn(message) }
                case let .failed(error):
                    if warnsEvents { warn(error.description) }
                case .started, .idle:
                    break
                }
                switch event {
                case let .started(_, _, key):
                    writer.started(key)
                case .idle, .failed:
                    writer.free()
                case .ended:
                    break // noted with its record above
                case .warning:
                    // A song skipped on the way to the resumed one leaves the resume standing.
                    break
                }
                teller.reported(event)
                for watcher in watchers.list.withLock({ $0 }) { watcher(event) }
            }
        }
        // Carried out before the player is handed back: a client asking right after a restart
        // (`moveoutput`) sees it playing, not the stop it was set up in.
        if plays {
            let commands = first + [.queue(.play(nil))]
            engine.perform(commands)
            teller.commanded(commands)
        } else if !first.isEmpty {
            engine.perform(first)
        }
        // Saved once the engine has taken its first turn: a crash before the first song starts
        // leaves this queue to resume.
        writer.save()
        writer.startSaving()
    }

    /// What the engine does now.
    public var status: PlaybackStatus { engine.status }

    /// Seconds heard: the songs heard to their end, and the one under way.
    public var playedSeconds: Int {
        let now = engine.status
        return heard.seconds + (now.queue.state != .stopped && now.entry != nil ? Int(now.position) : 0)
    }

    /// Tells `body` each engine event from now on, in order, after the room has recorded it.
    public func watch(_ body: @escaping @Sendable (PlaybackEvent) -> Void) {
        watchers.list.withLock { $0.append(body) }
    }

    /// Carries out commands and returns the status after them, telling the room's changes. The
    /// engine takes them at once, whatever its decode thread is doing (`EngineChannel`): a
    /// front never waits for a player.
    ///
    /// Throws `.restarting` when this player quit before the commands were handed over (a move
    /// of an output replaced it): the front gives them to the new one.
    @discardableResult
    public func perform(_ commands: [PlaybackCommand]) throws(StationError) -> PlaybackStatus {
        try perform(commands) { _ in [] }
    }

    @discardableResult
    public func perform(_ command: QueueCommand) throws(StationError) -> PlaybackStatus { try perform([.queue(command)]) }

    /// `perform`, then `more` (what the status after calls for), told as one change: a skip
    /// while paused plays the song moved to, and a front tells that once.
    @discardableResult
    public func perform(_ commands: [PlaybackCommand],
                        then more: @escaping @Sendable (PlaybackStatus) -> [PlaybackCommand]) throws(StationError) -> PlaybackStatus {
        guard !quitted.load(ordering: .acquiring), engine.performIfRunning(commands) != nil else { throw .restarting }
        var after = engine.status
        let next = more(after)
        // What the first part did stays done (a quit meanwhile saved it): not carried out again.
        if !next.isEmpty { after = engine.perform(next) }
        teller.commanded(commands + next)
        return after
    }

    /// Quits on an output hung in a call (the engine is left behind with it, the state saved),
    /// and tells the room's watchers and fronts that the output failed, as the engine tells a
    /// failure it can report: a front with no other output ends its run (`boomic play`).
    func leaveBehind(failure: AudioError) {
        quit(outputHangs: true)
        let event = PlaybackEvent.failed(failure)
        teller.reported(event)
        for watcher in watchers.list.withLock({ $0 }) { watcher(event) }
    }

    /// Saves the state now, in order with every other save (a front's own moment, tests).
    public func saveState() { writer.saveNow() }

    /// Stops the engine and saves the queue and position. A second caller returns once the
    /// first has saved. False when the output did not let go within 3 s (hung) and was left
    /// behind. A room that knows its output hangs (`outputHangs`) gives it a quarter of a
    /// second, and has said why.
    @discardableResult
    public func quit(outputHangs: Bool = false) -> Bool {
        guard !quitted.exchange(true, ordering: .acquiringAndReleasing) else {
            quitDone.wait()
            quitDone.signal()
            return engine.hasStopped
        }
        defer { quitDone.signal() }
        engine.quit(patience: outputHangs ? .milliseconds(250) : .seconds(3))
        // The quit's own `ended` (a song heard past half counts; an audiobook keeps its place)
        // is recorded first, into the library if it is still open, else into the saved state's
        // pending plays.
        if !engine.hasStopped {
            // An engine left behind on a hung output sends no more events.
            if !outputHangs { warn("\(room == "default" ? "the output" : "room \(room)'s output") did not stop within 3 s; left behind") }
            following.cancel()
        } else if drained.wait(timeout: .now() + 2) == .timedOut {
            following.cancel()
        }
        writer.finish()
        return engine.hasStopped
    }
}

/// Who is told a room's events, in order.
private final class EventWatchers: Sendable {
    let list: Mutex<[@Sendable (PlaybackEvent) -> Void]>
    init(_ list: [@Sendable (PlaybackEvent) -> Void]) { self.list = Mutex(list) }
}
