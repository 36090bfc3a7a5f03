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
    private let ring: SampleRing

    /// Starts the engine's threads. The queue plays at once if its state is `playing`; `resume`
    /// starts its entry at that frame (the rest of the queue plays from songs' starts).
    ///
    /// - Parameter sink: handed over to the output thread, which alone uses it from now on.
    public init(queue: PlayQueue, resume: ResumePoint? = nil,
                sink: sending any AudioSink, realtime: Bool = false, sound: SoundSettings = SoundSettings(),
                songs: @escaping @Sendable (SongID) -> PlayableSong?) {
        // An output that takes samples at once is woken per batch of slots, not per slot.
        let ring = SampleRing(slotCount: 24, slotCapacity: EngineLoop.framesPerSlot * 8,
                              wakeBatch: sink.isPaced || realtime ? 1 : 20)
        self.ring = ring
        let channel = EngineChannel(status: PlaybackStatus(queue: queue))
        self.channel = channel
        let (stream, continuation) = AsyncStream.makeStream(of: PlaybackEvent.self, bufferingPolicy: .unbounded)
        events = stream
        let handOver = HandOver(sink)
        let thread = Thread {
            let loop = EngineLoop(queue: queue, resume: resume, ring: ring, sink: handOver.take(),
                                  realtime: realtime, sound: sound, songs: songs, emit: { continuation.yield($0) },
                                  channel: channel)
            loop.run()
            continuation.finish()
            channel.finished.store(true, ordering: .releasing)
            channel.done.signal()
        }
        thread.name = "boomic-decode"
        thread.start()
    }

    /// Queues a command; it takes effect on the decode thread's next turn (within milliseconds).
    public func send(_ command: PlaybackCommand) {
        channel.inbox.withLock { $0.append(.command(command)) }
        ring.engineWake.signal()
    }

    /// Carries out `commands` and returns the status right after them: for a front whose next
    /// request must see their effect (an MPD client's `add` then `playlistinfo`). Waits for the
    /// decode thread's next turn, a millisecond or so.
    @discardableResult
    public func perform(_ commands: [PlaybackCommand]) -> PlaybackStatus {
        performIfRunning(commands) ?? status
    }

    /// `perform`, or nil when the engine quit before it carried the commands out (a front that
    /// replaces its engine, as the server's `moveoutput` does, then gives them to the next one).
    public func performIfRunning(_ commands: [PlaybackCommand]) -> PlaybackStatus? {
        guard let call = call(commands) else { return nil }
        // Bounded, so a front never hangs on an engine that has stopped taking turns.
        guard call.wait(upTo: .seconds(2)), call.isCarriedOut else { return nil }
        return status
    }

    /// Hands `commands` to the decode thread, once; nil when the engine has quit (nothing was
    /// handed over). The call tells when the decode thread has taken them (`EngineCall`): a
    /// front that must not wait long (the server's event loops) waits a little and, if the
    /// thread is busy (a decoder's open stalled on a sleeping disk), waits for the same call
    /// elsewhere, never sending the commands again.
    public func call(_ commands: [PlaybackCommand]) -> EngineCall? {
        let receipt = EngineChannel.Receipt()
        let taken = channel.inbox.withLock { inbox -> Bool in
            // Under the inbox's lock, as the quit closes it: nothing slips in after the last look.
            guard !channel.closed.load(ordering: .acquiring) else { return false }
            inbox += commands.map { .command($0) }
            inbox.append(.applied(receipt))
            return true
        }
        guard taken else { return nil }
        ring.engineWake.signal()
        return EngineCall(receipt)
    }

    /// The engine as of its last turn.
    public var status: PlaybackStatus { channel.published.withLock { $0 } }

    /// Goes up each time `status` changes (not while it stays the same: stopped, paused), so a
    /// front may keep what it made from a status until this moves. Read it before `status`:
    /// the status read after it is at least as new. Inlinable: the server's `status` poll
    /// checks it on every request, and an opaque call there costs it three retains.
    @inlinable public var statusVersion: Int { channel.version.load(ordering: .acquiring) }

    /// Stops playback (the current song ends with reason `quit`), closes the output and returns
    /// the final status, queue and position included, for the state file.
    ///
    /// An output that does not let go within `patience` (a sound card hung in a write, a pipe
    /// nobody reads) is left behind with the engine's threads, so that a front can still save
    /// and stop (SIGTERM waited for it forever): the status is then the last one published,
    /// `hasStopped` stays false, and `events` end only if the output ever lets go.
    @discardableResult
    public func quit(patience: DispatchTimeInterval = .seconds(3)) -> PlaybackStatus {
        channel.inbox.withLock { $0.append(.quit) }
        ring.engineWake.signal()
        if channel.done.wait(timeout: .now() + patience) == .success {
            channel.done.signal() // a second quit returns at once
        }
        return status
    }

    /// Whether the engine's threads have finished (after `quit`): its `events` have ended.
    public var hasStopped: Bool { channel.finished.load(ordering: .acquiring) }
}

/// Commands handed to the engine once (`PlaybackEngine.call`): carried out, dropped by the
/// engine's quit, or still waiting for the decode thread's turn.
public final class EngineCall: Sendable {
    private let receipt: EngineChannel.Receipt

    init(_ receipt: EngineChannel.Receipt) { self.receipt = receipt }

    /// Waits up to `patience` for the decode thread to take the call; true once it has (the
    /// commands carried out, or dropped by a quit: `isCarriedOut` tells which). Any number of
    /// waits, one after the other or at once, see it taken.
    public func wait(upTo patience: DispatchTimeInterval) -> Bool {
        guard receipt.done.wait(timeout: .now() + patience) == .success else { return false }
        receipt.done.signal()  // for the next wait
        return true
    }

    /// The commands were carried out (read after `wait` said the call was taken).
    public var isCarriedOut: Bool { receipt.carriedOut.load(ordering: .acquiring) }
}

/// What the engine object and its decode thread share: commands in, status out.
@usableFromInline final class EngineChannel: Sendable {
    enum Message: Sendable {
        case command(PlaybackCommand)
        /// Publish the status now and signal: the commands before it have been carried out.
        case applied(Receipt)
        case quit
    }

    /// What `perform` waits on: signalled when the commands before it were carried out, or
    /// when the engine quit without them.
    final class Receipt: Sendable {
        let done = DispatchSemaphore(value: 0)
        let carriedOut = Atomic<Bool>(false)
    }

    /// Set, under the inbox's lock, when the decode thread has taken its last message.
    let closed = Atomic<Bool>(false)

    let inbox = Mutex<[Message]>([])
    let published: Mutex<PlaybackStatus>
    /// Counts changes of `published`.
    @usableFromInline let version = Atomic<Int>(0)
    /// Signalled when the decode thread has finished.
    let done = DispatchSemaphore(value: 0)
    /// Set just before `done` is first signalled.
    let finished = Atomic<Bool>(false)

    init(status: PlaybackStatus) { published = Mutex(status) }
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
