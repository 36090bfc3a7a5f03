import BoomicAudio
import BoomicCore
import Foundation
import Synchronization

/// The player: carries out what the queue value decides, on a decode thread and an output thread
/// joined by a ring buffer (`SampleRing`), so that songs follow each other with no gap, pause,
/// skip and seek are heard within 100 ms, and the output never waits on anything but the device.
///
/// A front (`boomic play`, the MPD server) owns one engine: it sends commands, reads `status`
/// whenever it draws, and follows `events` to count plays. The engine never touches the library:
/// the front resolves songs (`PlayableSong`) from the snapshot it reads.
public final class PlaybackEngine: Sendable {
    /// What the engine reports, in order: songs started and ended, warnings, idle, failure.
    public let events: AsyncStream<PlaybackEvent>
    /// Reachable from `statusVersion`'s inlined body, not otherwise used outside this file.
    @usableFromInline let channel: EngineChannel
    /// Internal for tests, which wait for it to fill.
    let ring: SampleRing

    /// Starts the engine's threads. The queue plays at once if its state is `playing`; `resume`
    /// starts its entry at that frame (the rest of the queue plays from songs' starts).
    ///
    /// While `threads` has as many decode threads left behind as its limit (each stuck in a
    /// call that never returned), the engine is refused: it starts no thread, reports
    /// `failed` with the reason and ends its events, and takes no commands.
    ///
    /// - Parameter sink: handed over to the output thread, which alone uses it from now on.
    public init(queue: PlayQueue, resume: ResumePoint? = nil,
                sink: sending any AudioSink, realtime: Bool = false, sound: SoundSettings = SoundSettings(),
                threads: LeftBehindThreads = .process,
                songs: @escaping @Sendable (SongID) -> PlayableSong?) {
        // An output that takes samples at once is woken per batch of slots, not per slot.
        let ring = SampleRing(slotCount: 24, slotCapacity: EngineLoop.framesPerSlot * 8,
                              wakeBatch: sink.isPaced || realtime ? 1 : 20)
        self.ring = ring
        // Until the decode thread's first turn a front reads this status: the sound is the one
        // given (a restart's saved volume), not the default.
        var initial = PlaybackStatus(queue: queue)
        initial.sound = sound
        let channel = EngineChannel(status: initial, threads: threads)
        self.channel = channel
        let (stream, continuation) = AsyncStream.makeStream(of: PlaybackEvent.self, bufferingPolicy: .unbounded)
        events = stream
        guard threads.hasRoom else {
            let reason = "\(threads.count) players are left behind stuck in a file's open or an output; no new one starts until one returns"
            continuation.yield(.failed(AudioError(path: sink.name, reason: reason)))
            try? sink.close()
            continuation.finish()
            channel.askQuit()
            channel.threadFinished()
            return
        }
        let handOver = HandOver(sink)
        let thread = Thread {
            let loop = EngineLoop(queue: queue, resume: resume, ring: ring, sink: handOver.take(),
                                  realtime: realtime, sound: sound, songs: songs, emit: { continuation.yield($0) },
                                  channel: channel)
            loop.run()
            continuation.finish()
            channel.threadFinished()
        }
        thread.name = "boomic-decode"
        thread.start()
    }

    /// Carries out a command as `perform` does, without the status.
    public func send(_ command: PlaybackCommand) {
        perform([command])
    }

    /// Carries out `commands` and returns the status with their effect, at once, on the
    /// caller's thread, whatever the decode thread is doing (a decoder's open may stall for
    /// minutes on a sleeping disk). Queue commands change the queue here; what needs the decoder
    /// (the song to play, a seek, the sound) is done by the decode thread when it is free, and
    /// its effect on the queue (the current entry, the state) is in the status already.
    @discardableResult
    public func perform(_ commands: [PlaybackCommand]) -> PlaybackStatus {
        performIfRunning(commands) ?? status
    }

    /// `perform`, or nil when the engine quit before it (a front that replaces its engine, as
    /// the server's `moveoutput` does, then gives the commands to the next one).
    public func performIfRunning(_ commands: [PlaybackCommand]) -> PlaybackStatus? {
        let ring = ring
        let taken = channel.take(commands) { state, sound in
            // Heard at once, even while the decode thread is stuck: the output thread scales
            // what the ring holds, and stops between slots when paused. (The decode thread sets
            // both again as it catches up; playing on is left to it, which knows what to drop.)
            if let sound {
                ring.volume.store(Float(Volume.gain(percent: Double(sound.volume))).bitPattern, ordering: .releasing)
            }
            if state == .paused, !ring.paused.exchange(true, ordering: .acquiringAndReleasing) { ring.outputWake.signal() }
        }
        guard let status = taken else { return nil }
        if !commands.isEmpty { ring.engineWake.signal() }
        return status
    }

    /// The status once the decode thread has caught up with every command given so far (the
    /// new song opened: its duration and format; a seek done), waiting up to `patience`; nil
    /// when it has not by then (stuck in a file's open: the front goes on with `status`). For a
    /// front that may wait off its event loop.
    public func statusCaughtUp(within patience: DispatchTimeInterval) -> PlaybackStatus? {
        channel.statusCaughtUp(within: patience)
    }

    /// Whether the decode thread has published its first status (a state file written before it
    /// would know less than the one it replaces: no place in the song).
    public var hasTakenFirstTurn: Bool { channel.tookFirstTurn.load(ordering: .acquiring) }

    /// The engine as last published: by the decode thread at each turn, and by each command.
    public var status: PlaybackStatus { channel.shared.withLock(\.status) }

    /// Goes up each time `status` changes (not while it stays the same: stopped, paused), so a
    /// front may keep what it made from a status until this moves. Read it before `status`:
    /// the status read after it is at least as new. Inlinable: the server's `status` poll
    /// checks it on every request, and an opaque call there costs it three retains.
    @inlinable public var statusVersion: Int { channel.version.load(ordering: .acquiring) }

    /// Stops playback (the current song ends with reason `quit`), closes the output and returns
    /// the final status, queue and position included, for the state file.
    ///
    /// A decode thread that does not finish within `patience` (stuck in a file's open, or
    /// behind an output that does not let go: a sound card hung in a write, a pipe nobody
    /// reads) is left behind, so that a front can still save and stop (SIGTERM waited for it
    /// forever): the output is told to stop, the status is the last one published, `hasStopped`
    /// stays false, `events` end only if the thread ever returns, and the thread counts in
    /// `LeftBehindThreads` until then. Commands after the quit are not taken.
    @discardableResult
    public func quit(patience: DispatchTimeInterval = .seconds(3)) -> PlaybackStatus {
        channel.askQuit()
        ring.engineWake.signal()
        if channel.done.wait(timeout: .now() + patience) == .success {
            channel.done.signal() // a second quit returns at once
        } else {
            channel.leaveBehind()
            // The device is let go even while the decode thread is stuck (its own quit does
            // the same once it returns).
            ring.quit.store(true, ordering: .releasing)
            ring.outputWake.signal()
        }
        return status
    }

    /// Whether the engine's threads have finished (after `quit`): its `events` have ended.
    public var hasStopped: Bool { channel.finished.load(ordering: .acquiring) }

    /// Decode threads left behind by quits in this process, not yet returned.
    public static var threadsLeftBehind: Int { LeftBehindThreads.process.count }
}

/// Carries a value that is not `Sendable` from the thread that made it to the one thread that
/// will use it. `@unchecked Sendable`, safe because the value is put in once by `init` and taken
/// out once by `take()` on the receiving thread; the sender gives up its reference when handing
/// over (the parameter is `sending`) and never touches it again.
final class HandOver<Value>: @unchecked Sendable {
    private var value: Value?
    init(_ value: sending Value) { self.value = value }
    func take() -> Value {
        defer { value = nil }
        return value!
    }
}
