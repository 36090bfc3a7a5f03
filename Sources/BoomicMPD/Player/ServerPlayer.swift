import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
import BoomicSystem
import Foundation
import Synchronization

/// The one player every client drives: an engine on the server's output, started from the
/// saved state (as `boomic play --resume` would, so a restart goes on where it stopped), its
/// plays recorded by the player's rule, its state saved every few seconds and on the way out,
/// and its changes told to idle clients.
public final class ServerPlayer: Sendable {
    public let engine: PlaybackEngine
    private let store: PlayerStateStore
    private let recorder: PlayRecorder?
    private let library: ServerLibrary
    private let hub: IdleHub
    private let warn: @Sendable (String) -> Void
    /// The room this player plays in: its idle events go to that room's clients.
    public let room: String
    /// Saves the state every 5 s: the most a crash or power cut loses.
    private let saving = Mutex<Task<Void, Never>?>(nil)
    private let following: Task<Void, Never>
    /// Signalled when `following` has taken the engine's last event (its stream ends after
    /// `quit`): the play of the song the quit stopped is recorded before the state is saved.
    private let drained = DispatchSemaphore(value: 0)
    /// What this player has played since the server started (`stats`' playtime).
    private let heard: HeardCounter
    /// The serial of the last failure a client cleared (`clearerror`): `status` shows an
    /// `error:` line only for a later one.
    public let clearedFailure = Atomic<Int>(0)
    /// The entry a client's command last made current, told as `player` then: the engine's
    /// `started` for it says nothing new (MPD tells a skip once).
    private let commanded: CommandedEntry
    public var playedSeconds: Int {
        // The songs heard to their end, and the one under way: MPD's `playtime` moves as it plays.
        let now = engine.status
        return heard.seconds + (now.queue.state != .stopped && now.entry != nil ? Int(now.position) : 0)
    }
    /// Set by `quit`: the engine is gone, nothing more is sent to it.
    private let quitted = Atomic<Bool>(false)
    /// Signalled when the quit has saved (and again by each who waited for it).
    private let quitDone = DispatchSemaphore(value: 0)
    /// Set when the quit has saved: a call the engine has not taken by then is carried out by
    /// no player of this room.
    private let quitFinished = Atomic<Bool>(false)

    public init(library: ServerLibrary, store: PlayerStateStore, sink: sending any AudioSink, realtime: Bool,
                sound: SoundSettings, hub: IdleHub, room: String = "default", record: Bool,
                opening: (@Sendable (SongID) -> Void)? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.room = room
        let basis = library.snapshot.basis
        let saved = try? store.load()
        var queue = saved?.queue ?? PlayQueue(seed: UInt64.random(in: 0...UInt64.max))
        let resume = saved?.resumePoint(in: basis)
        // Playing starts once everything is set up; paused comes back paused at its place, as
        // MPD restores it (the engine prepares the song and holds the output).
        let wasPlaying = queue.state == .playing
        if wasPlaying || resume == nil { queue.apply(.stop) }
        var sound = sound
        if let volume = saved?.volume { sound.volume = min(max(volume, 0), 100) }
        engine = PlaybackEngine(queue: queue, resume: resume, sink: sink, realtime: realtime, sound: sound) { id in
            opening?(id)
            return library.snapshot.basis[id].map {
                PlayableSong(id: $0.id, path: $0.path,
                             startAt: $0.startSeconds(bookmark: $0.remembersPosition ? $0.bookmarkValue?.position : nil),
                             replayGain: ReplayGainTags($0), duration: $0.duration, range: $0.playRange)
            }
        }
        self.store = store
        self.library = library
        self.hub = hub
        self.warn = warn
        let recorder = record ? PlayRecorder(session: library.session, pending: saved?.pending ?? [], warn: warn) : nil
        self.recorder = recorder
        recorder?.flushPending()
        let events = engine.events
        let engine = engine
        let heard = HeardCounter()
        self.heard = heard
        let commanded = CommandedEntry()
        self.commanded = commanded
        let drained = drained
        // Off the cooperative pool: `quit` waits for this task on a thread that may be the pool's.
        following = Task.detached(executorPreference: QueueExecutor(label: "boomic.serve.player-events")) {
            defer { drained.signal() }
            for await event in events {
                switch event {
                case let .ended(end):
                    heard.add(end.heard)
                    if let recorder, let play = PlayRecorder.record(for: end, song: library.snapshot.basis[end.song]) {
                        recorder.record(play)
                    }
                    // A skip, a stop or a quit was a command, told when it was carried out. The
                    // queue's entries change at a song's end only when consume takes it out.
                    guard end.reason == .finished || end.reason == .failed else { break }
                    commanded.forget()
                    // What follows (the next song's start, or the stop at the queue's end) is
                    // the same change, told once, as MPD tells a song change.
                    commanded.setEndTold()
                    hub.post(engine.status.queue.consume ? [.player, .playlist] : [.player], room: room)
                case let .started(entry, _):
                    // Saved at every song's start: after a crash the server resumes this song,
                    // not the tail of the one whose play was just committed.
                    try? Self.save(engine.status, to: store, library: library, recorder: recorder)
                    commanded.awaitCommands()
                    if commanded.take() == entry || commanded.takeEndTold() { break }
                    hub.post([.player], room: room)
                case .idle:
                    // A stop a client asked for was told then.
                    commanded.awaitCommands()
                    if commanded.takeStop() || commanded.takeEndTold() { break }
                    hub.post([.player], room: room)
                case let .warning(message):
                    warn(message)
                case let .failed(error):
                    warn(error.description)
                    hub.post([.player, .output], room: room)
                }
            }
        }
        saving.withLock {
            $0 = Task.detached { [weak self] in
                // Only when the engine's status moved: an idle server writes nothing (it wrote
                // the state file every 5 s, forever, an SD card's worth of wear on a Pi).
                var saved: (version: Int, pending: [PlayRecord])?
                while !Task.isCancelled {
                    try? await Task.sleep(for: PlayerFront.saveEvery)
                    guard let self, !Task.isCancelled else { return }
                    let now = (version: engine.statusVersion, pending: recorder?.uncommitted ?? [])
                    if let saved, saved.version == now.version, saved.pending == now.pending { continue }
                    try? save(engine.status)
                    saved = now
                }
            }
        }
        // Carried out before the player is handed back: a client asking right after a restart
        // (`moveoutput`) sees it playing, not the stop it was set up in.
        if wasPlaying { engine.perform([.queue(.play(nil))]) }
    }

    /// What the engine does now.
    public var status: PlaybackStatus { engine.status }

    /// How long a command waits on its event loop for the engine to take its call: the decode
    /// thread takes one within milliseconds unless something holds it (a decoder's open on a
    /// sleeping disk), and then the other clients on that loop are not kept waiting for it.
    static let loopPatience: DispatchTimeInterval = .milliseconds(250)

    /// Carries out commands and returns the status after them, telling idle clients what
    /// changed (the queue's entries, the player's state, its options, the mixer).
    ///
    /// Throws `MPDError.roomRestarting` when this player quit before the commands were handed
    /// over or carried out (another client's `moveoutput` replaced it): the connection gives
    /// them to the new one. Throws `MPDError.pending` when the engine has not taken them within
    /// `loopPatience`: they stay handed over, once, and the connection waits for them
    /// (`settle`) off its loop.
    @discardableResult
    public func perform(_ commands: [PlaybackCommand]) throws(MPDError) -> PlaybackStatus {
        try perform(commands) { _ in [] }
    }

    /// `perform`, then `more` (what the status after calls for), told to idle clients as one
    /// change: a skip while paused plays the song moved to, and MPD tells that once.
    @discardableResult
    public func perform(_ commands: [PlaybackCommand],
                        then more: @escaping @Sendable (PlaybackStatus) -> [PlaybackCommand]) throws(MPDError) -> PlaybackStatus {
        guard !quitted.load(ordering: .acquiring) else { throw .roomRestarting }
        let before = engine.status
        commanded.begin()
        guard let call = engine.call(commands) else {
            commanded.end()
            throw .roomRestarting
        }
        guard call.wait(upTo: Self.loopPatience) else {
            throw .pending(PendingPlayerCall(player: self, call: call, before: before, commands: commands, more: more))
        }
        defer { commanded.end() }
        guard call.isCarriedOut else { throw .roomRestarting }
        return finish(before: before, commands: commands, more: more)
    }

    /// Waits for a call `perform` left pending until the engine takes it; the status after it
    /// (and after its `more`), told to idle clients, or nil when the player quit without
    /// carrying it out (an engine left behind on a hung output never takes it: its quit saved
    /// the queue without it). Blocking work.
    func settle(_ pending: PendingPlayerCall) -> PlaybackStatus? {
        defer { commanded.end() }
        while !pending.call.wait(upTo: .milliseconds(100)) {
            if quitFinished.load(ordering: .acquiring) { return nil }
        }
        guard pending.call.isCarriedOut else { return nil }
        return finish(before: pending.before, commands: pending.commands, more: pending.more)
    }

    private func finish(before: PlaybackStatus, commands: [PlaybackCommand],
                        more: (PlaybackStatus) -> [PlaybackCommand]) -> PlaybackStatus {
        var after = engine.status
        let next = more(after)
        // What the first part did stays done (the quit saved it): not carried out again.
        if !next.isEmpty { after = engine.perform(next) }
        tell(from: before, to: after, commands: commands + next)
        return after
    }

    private func tell(from before: PlaybackStatus, to after: PlaybackStatus, commands: [PlaybackCommand]) {
        var told: Set<Subsystem> = []
        // The queue's version also moves with its state and options; MPD's `playlist` is its
        // entries (added, removed, moved, re-prioritised), and a client refetches the queue on it.
        if after.queue.entries != before.queue.entries { told.insert(.playlist) }
        // MPD tells a `clear` even of an empty queue.
        if commands.contains(where: { if case .queue(.clear) = $0 { true } else { false } }) { told.insert(.playlist) }
        // MPD tells `player` when the state or the song changes, not when a stopped queue's
        // current entry moves (a `clear`, a `delete`).
        let stopped = before.queue.state == .stopped && after.queue.state == .stopped
        if after.queue.state != before.queue.state || !stopped && (after.entry != before.entry || after.queue.current != before.queue.current) {
            told.insert(.player)
            // The engine's own word for what this did (the song started, playback stopped)
            // would tell it again.
            if after.queue.state == .playing, let entry = after.queue.current,
               after.queue.starts != before.queue.starts || before.queue.state != .playing {
                commanded.set(entry)
            }
            if after.queue.state == .stopped, before.queue.state != .stopped { commanded.setStop() }
        }
        if after.queue.isRandom != before.queue.isRandom || after.queue.repeatMode != before.queue.repeatMode
            || after.queue.single != before.queue.single || after.queue.consume != before.queue.consume {
            told.insert(.options)
        }
        if after.sound.volume != before.sound.volume { told.insert(.mixer) }
        if after.sound.replayGain != before.sound.replayGain { told.insert(.options) }
        if commands.contains(where: { if case .seek = $0 { true } else if case .seekBy = $0 { true } else { false } }) {
            told.insert(.player)
        }
        hub.post(told, room: room)
    }

    @discardableResult
    public func perform(_ command: QueueCommand) throws(MPDError) -> PlaybackStatus { try perform([.queue(command)]) }

    /// Stops the engine and saves the queue and position (SIGTERM, the end of `serve`). A second
    /// caller (SIGTERM while a `moveoutput` restarts the room) returns once the first has saved.
    /// False when the output did not let go within 3 s (hung) and was left behind. A room that
    /// knows its output hangs (`outputHangs`) gives it a quarter of a second, and has said why.
    @discardableResult
    public func quit(outputHangs: Bool = false) -> Bool {
        guard !quitted.exchange(true, ordering: .acquiringAndReleasing) else {
            quitDone.wait()
            quitDone.signal()
            return engine.hasStopped
        }
        defer {
            quitFinished.store(true, ordering: .releasing)
            quitDone.signal()
        }
        saving.withLock { $0?.cancel() }
        let final = engine.quit(patience: outputHangs ? .milliseconds(250) : .seconds(3))
        // The quit's own `ended` (a song heard past half counts; an audiobook keeps its place)
        // is recorded first, into the library if it is still open, else into the saved state's
        // pending plays. Cancelling the task could drop it, and saving first did.
        if !engine.hasStopped {
            // An engine left behind on a hung output sends no more events.
            if !outputHangs { warn("\(room == "default" ? "the player" : "room \(room)")'s output did not stop within 3 s; left behind") }
            following.cancel()
        } else if drained.wait(timeout: .now() + 2) == .timedOut {
            following.cancel()
        }
        try? save(final)
        return engine.hasStopped
    }

    private func save(_ status: PlaybackStatus) throws {
        try Self.save(status, to: store, library: library, recorder: recorder)
    }

    private static func save(_ status: PlaybackStatus, to store: PlayerStateStore, library: ServerLibrary,
                             recorder: PlayRecorder?) throws {
        let song = status.entry.flatMap { status.queue.entry($0) }.flatMap { library.snapshot.basis[$0.song] }
        try store.save(PlayerState(queue: status.queue, entry: status.entry, frame: status.frame, play: status.play, song: song,
                                   pending: recorder?.uncommitted ?? [], volume: status.sound.volume))
    }
}

/// Seconds heard, added from the engine's `ended` events.
/// The entry a command made current (`ServerPlayer.perform`), until the engine starts it, and
/// a stop a command made, until the engine goes idle.
final class CommandedEntry: Sendable {
    private let raw = Atomic<Int>(-1)
    private let stop = Atomic<Bool>(false)
    /// Commands carried out now: the engine may report what one did before `perform` has
    /// said so (its thread descheduled between the two on a busy machine).
    private let inFlight = Atomic<Int>(0)
    /// Set when a song's end by itself was told; a command's own word comes after it.
    private let endTold = Atomic<Bool>(false)
    func begin() {
        inFlight.add(1, ordering: .acquiringAndReleasing)
        endTold.store(false, ordering: .relaxed)
    }
    func setEndTold() { endTold.store(true, ordering: .relaxed) }
    func takeEndTold() -> Bool { endTold.exchange(false, ordering: .relaxed) }
    func end() { inFlight.subtract(1, ordering: .acquiringAndReleasing) }
    /// Waits (at most 100 ms) until no command is being carried out, so its word comes first.
    func awaitCommands() {
        var waited = 0
        while inFlight.load(ordering: .acquiring) > 0, waited < 100 {
            usleep(1_000)
            waited += 1
        }
    }
    func set(_ entry: PlayQueue.EntryID) { raw.store(entry.rawValue, ordering: .relaxed) }
    func setStop() { stop.store(true, ordering: .relaxed) }
    func takeStop() -> Bool { stop.exchange(false, ordering: .relaxed) }
    func forget() { raw.store(-1, ordering: .relaxed) }
    /// The entry, forgotten as it is taken.
    func take() -> PlayQueue.EntryID? {
        let r = raw.exchange(-1, ordering: .relaxed)
        return r < 0 ? nil : PlayQueue.EntryID(r)
    }
}

final class HeardCounter: Sendable {
    private let milliseconds = Atomic<Int>(0)
    func add(_ seconds: Double) { milliseconds.add(Int(seconds * 1000), ordering: .relaxed) }
    var seconds: Int { milliseconds.load(ordering: .relaxed) / 1000 }
}
