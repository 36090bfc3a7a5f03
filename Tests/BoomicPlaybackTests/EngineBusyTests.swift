import BoomicTestSupport
import BoomicAudio
import BoomicCore
@testable import BoomicPlayback
import Dispatch
import Foundation
import Synchronization
import Testing

/// Holds the engine's decode thread in its first look-up of a song, as a file's open stalled on
/// a sleeping disk holds it, until the test lets it go.
final class StuckOpen: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let open = Atomic<Bool>(false)
    /// How many look-ups are held.
    let held = Atomic<Int>(0)

    /// A resolver that waits at the gate until `release` (for `song` only, when given).
    func resolver(_ songs: @escaping @Sendable (SongID) -> PlayableSong?, holding song: SongID? = nil)
        -> @Sendable (SongID) -> PlayableSong? {
        { id in
            if !self.open.load(ordering: .acquiring), song == nil || song == id {
                self.held.add(1, ordering: .releasing)
                self.gate.wait()
                self.gate.signal() // the next one held passes too
            }
            return songs(id)
        }
    }

    func release() {
        open.store(true, ordering: .releasing)
        gate.signal()
    }
}

/// The queue is changed at once, on the caller's thread, while the decode thread is busy: a
/// front's `add`, `move`, `delete` and `shuffle` answer with their effect, and the decode thread
/// plays what the queue says once it is free.
@Suite struct EngineBusyTests {
    @Test func queueCommandsTakeEffectWhileTheDecodeThreadIsStuck() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        let stuck = StuckOpen()
        let queue = album.queue([0, 1, 2])
        let e = queue.entries.map(\.id)
        let engine = PlaybackEngine(queue: queue, sink: RecordingSink(tape: tape), songs: stuck.resolver(album.resolver()))
        try await waitUntil("the decoder's open to be held") { stuck.held.load(ordering: .acquiring) == 1 }

        var s = engine.perform([.queue(.add([album.songs[0].id], at: .end))])
        try #require(s.queue.entries.map(\.song) == [0, 1, 2, 0].map { album.songs[$0].id }, "add")
        let added = s.queue.entries[3].id
        s = engine.perform([.queue(.remove([e[0]]))])
        #expect(s.queue.entries.map(\.id) == [e[1], e[2], added], "delete")
        #expect(s.queue.current == e[1] && s.entry == e[1] && s.queue.state == .playing, "the current entry deleted: the next one")
        s = engine.perform([.queue(.move(positions: 2..<3, to: 1))])
        #expect(s.queue.entries.map(\.id) == [e[1], added, e[2]], "move")
        s = engine.perform([.queue(.shuffle(nil))])
        #expect(Set(s.queue.entries.map(\.id)) == [e[1], added, e[2]] && s.queue.entries.first?.id == e[1], "shuffle")
        #expect(stuck.held.load(ordering: .acquiring) == 1, "the decode thread is still held")

        let order = s.queue.entries.map(\.song)
        stuck.release()
        let seen = await events(of: engine)
        engine.quit()
        let started = seen.compactMap { if case let .started(_, song, _) = $0 { song } else { nil } }
        #expect(started == order, "played \(started), the queue says \(order)")
        let index = Dictionary(uniqueKeysWithValues: album.songs.enumerated().map { ($1.id, $0) })
        let expected = order.flatMap { album.samples(ofTrack: index[$0]!) }
        let played = tape.samples.withLock { $0 }
        #expect(played.count == expected.count && firstDifference(played, expected) == nil,
                "\(played.count / 2) frames played, \(expected.count / 2) expected")
    }

    /// Play, next and seek given while the thread is held are carried out once it is free; their
    /// effect on the queue is seen at once.
    @Test func playerCommandsWaitForTheThreadAndShowTheirQueueAtOnce() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        let stuck = StuckOpen()
        let queue = album.queue([0, 1, 2])
        let e = queue.entries.map(\.id)
        let engine = PlaybackEngine(queue: queue, sink: RecordingSink(tape: tape), songs: stuck.resolver(album.resolver()))
        try await waitUntil("the decoder's open to be held") { stuck.held.load(ordering: .acquiring) == 1 }
        let s = engine.perform([.queue(.play(e[2])), .seek(to: 20_000.0 / 44_100)])
        #expect(s.queue.current == e[2] && s.entry == e[2], "play shows its song at once")
        #expect(abs(s.position - 20_000.0 / 44_100) < 1e-9, "and the seek its position")
        #expect(engine.statusCaughtUp(within: .milliseconds(50)) == nil, "the decode thread has not caught up")
        stuck.release()
        // Caught up: the song opened and sought in.
        let caught = engine.statusCaughtUp(within: .seconds(10))
        let length = Double(album.bounds[3] - album.bounds[2]) / 44_100
        #expect(caught.map { $0.entry == e[2] && $0.frame >= 20_000 && abs(($0.duration ?? 0) - length) < 1e-9 } == true,
                "\(String(describing: caught))")
        _ = await events(of: engine)
        engine.quit()
        let expected = Array(album.samples(ofTrack: 2).dropFirst(20_000 * 2))
        let played = tape.samples.withLock { $0 }
        #expect(played.count == expected.count && firstDifference(played, expected) == nil,
                "\(played.count / 2) frames played, \(expected.count / 2) expected")
    }

    /// Before the decode thread's first turn (held in its first open, as on a loaded machine),
    /// the status a front reads already has the sound the engine was given: a restart answers
    /// `status` with the volume it saved, not the default.
    @Test func theStatusBeforeTheFirstTurnHasTheSoundGiven() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        let stuck = StuckOpen()
        var sound = SoundSettings()
        sound.volume = 40
        let engine = PlaybackEngine(queue: album.queue([0, 1]), sink: RecordingSink(tape: tape), sound: sound, songs: stuck.resolver(album.resolver()))
        try await waitUntil("the decoder's first open to be held") { stuck.held.load(ordering: .acquiring) == 1 }
        #expect(!engine.hasTakenFirstTurn, "the setup: the first turn is held")
        #expect(engine.status.sound.volume == 40)
        stuck.release()
        engine.quit()
    }

    /// A pause is heard at once while the decode thread is held opening the next song: the
    /// output stops between slots instead of playing out what the ring holds.
    @Test func aPauseIsHeardWhileTheDecodeThreadIsStuck() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(4_096)
        let stuck = StuckOpen()
        let engine = PlaybackEngine(queue: album.queue([0, 1]), sink: RecordingSink(tape: tape),
                                    songs: stuck.resolver(album.resolver(), holding: album.songs[1].id))
        // Track 0 decoded whole into the ring, the look-ahead's open held; the sink holds the third slot.
        try await waitUntil("the open and the write both held") { stuck.held.load(ordering: .acquiring) == 1 && tape.held.load(ordering: .acquiring) == 1 }
        #expect(engine.perform([.queue(.pause)]).queue.state == .paused)
        tape.allow(.max)
        try await waitUntil("6,144 frames heard") { tape.frames >= 6_144 }
        stuck.release()
        try await aWholeTurn(of: engine)
        #expect(tape.frames == 6_144, "\(tape.frames) frames written: the output played on while paused")
        engine.send(.queue(.play(nil)))
        _ = await events(of: engine)
        engine.quit()
        let both = album.samples(ofTrack: 0) + album.samples(ofTrack: 1)
        let played = tape.samples.withLock { $0 }
        #expect(played.count == both.count && firstDifference(played, both) == nil)
    }

    /// A quit that meets the decode thread held in an open returns after its patience and leaves
    /// the thread behind, counted until it returns and finishes.
    @Test func quitLeavesAStuckDecodeThreadBehind() async throws {
        let album = try ToneAlbum()
        let stuck = StuckOpen()
        let threads = LeftBehindThreads(limit: 1)
        let engine = PlaybackEngine(queue: album.queue([0]), sink: RecordingSink(tape: RecordingSink.Tape()),
                                    threads: threads, songs: stuck.resolver(album.resolver()))
        try await waitUntil("the decoder's open to be held") { stuck.held.load(ordering: .acquiring) == 1 }
        let final = engine.quit(patience: .milliseconds(50))
        #expect(final.queue.current == album.queue([0]).current)
        #expect(!engine.hasStopped && threads.count == 1)
        #expect(engine.performIfRunning([.queue(.next)]) == nil, "a quit engine takes no more commands")

        // At the cap, a new engine is refused with a clear error and starts no thread.
        let refused = PlaybackEngine(queue: album.queue([0]), sink: RecordingSink(tape: RecordingSink.Tape()),
                                     threads: threads, songs: album.resolver())
        let said = await events(of: refused, until: { _ in false }, timeout: .seconds(5))
        #expect(refused.hasStopped)
        let failures = said.compactMap { if case let .failed(error) = $0 { error.reason } else { nil } }
        #expect(failures.count == 1 && failures[0].contains("left behind"), "\(said)")

        stuck.release()
        try await waitUntil("engine.hasStopped") { engine.hasStopped }
        #expect(threads.count == 0)
    }
}
