import BoomicTestSupport
import BoomicAudio
import BoomicCore
@testable import BoomicPlayback
import Foundation
import Testing

/// Seek, pause, previous and stop act on what is heard, not on what was decoded ahead.
@Suite struct EngineControlTests {
    /// A seek lands on the frame asked for: what follows in the sink is the track from there.
    @Test func seekPlaysOnFromTheFrameAsked() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(4_096)
        let engine = PlaybackEngine(queue: album.queue([1]), sink: RecordingSink(tape: tape), songs: album.resolver())
        try await waitUntil("tape.frames == 4_096") { tape.frames == 4_096 }
        let target = 20_000
        engine.send(.seek(to: Double(target) / 44_100))
        #expect(engine.status.frame == target, "the status shows the seek at once")
        try await aWholeTurn(of: engine) // carried out
        tape.allow(.max)
        let seen = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        let track = Array(album.samples(ofTrack: 1))
        let tail = Array(track[(target * 2)...])
        let head = played.count - tail.count
        #expect(head >= 4_096 * 2 && head <= 6_144 * 2, "\(head / 2) frames before the seek")
        #expect(firstDifference(played[head...], tail) == nil, "after the seek the track does not continue from frame \(target)")
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.count == 1 && ends[0].reason == .finished)
        // Heard: what played before the seek and after it, not the position; the slot being
        // written when the seek came (one slot, 46 ms) may go uncounted.
        let heard = Double(head / 2 + tail.count / 2) / 44_100
        #expect(ends.first.map { abs($0.heard - heard) <= 2_048.0 / 44_100 } == true, "heard \(ends.first?.heard ?? -1) s, expected \(heard)")
    }

    /// An engine made with a stopped queue says nothing until told to play: `boomic play` starts
    /// it, then sends `play`, and an `idle` in between (the engine's loop got there first on a
    /// busy machine) ended its run with "nothing playable" before a song had started.
    @Test func aStoppedEngineWaitsForPlayWithoutReportingIdle() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        let stopped = album.queue([0]).applying(.stop)
        let engine = PlaybackEngine(queue: stopped, sink: RecordingSink(tape: tape), songs: album.resolver())
        // Turns of the decode thread with the queue stopped, where an `idle` came.
        try await aWholeTurn(of: engine)
        engine.send(.queue(.play(nil)))
        let seen = await events(of: engine)
        engine.quit()
        #expect(seen.first.map { if case .started = $0 { true } else { false } } == true, "\(seen.prefix(3))")
        #expect(seen.filter { $0 == .idle }.count == 1)
        #expect(firstDifference(tape.samples.withLock { $0 }, album.samples(ofTrack: 0)) == nil)
    }

    /// A song's start carries the key of its play, the one its end carries: a front matches the
    /// two without asking the status which play is under way.
    @Test func aStartCarriesTheKeyOfThePlayItsEndCarries() async throws {
        let album = try ToneAlbum()
        let engine = PlaybackEngine(queue: album.queue([0, 1]), sink: RecordingSink(tape: RecordingSink.Tape()), songs: album.resolver())
        let seen = await events(of: engine)
        engine.quit()
        let starts = seen.compactMap { if case let .started(entry, _, key) = $0 { (entry, key) } else { nil } }
        let ends = seen.compactMap { if case let .ended(end) = $0 { end } else { nil } }
        #expect(starts.count == 2 && ends.count == 2, "\(seen)")
        #expect(zip(starts, ends).allSatisfy { $0.0 == $1.entry && $0.1 == $1.key }, "\(seen)")
        #expect(Set(starts.map(\.1)).count == 2, "each play its own key")
    }

    /// Commands sent after the quit are not carried out, and their sender hears so (nil), not a
    /// status as if they had been: the server then gives them to the room's next player.
    @Test func commandsAfterTheQuitAreSaidNotCarriedOut() async throws {
        let album = try ToneAlbum()
        let engine = PlaybackEngine(queue: album.queue([0]).applying(.stop), sink: RecordingSink(tape: RecordingSink.Tape()),
                                    songs: album.resolver())
        let before = engine.performIfRunning([.queue(.setRandom(true))])
        #expect(before?.queue.isRandom == true, "carried out while running")
        engine.quit()
        #expect(engine.performIfRunning([.queue(.setRandom(false))]) == nil, "said carried out after the quit")
        #expect(engine.status.queue.isRandom == true)
    }

    /// With `single`, the song after the one that ended waits paused at its start (MPD 0.23):
    /// nothing of it is heard until `play`, then all of it.
    @Test func singleWaitsPausedAtTheNextSong() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        let queue = album.queue([0, 1]).applying(.setSingle(.on))
        let engine = PlaybackEngine(queue: queue, sink: RecordingSink(tape: tape), songs: album.resolver())
        try await waitUntil("engine.status.queue.state == .paused") { engine.status.queue.state == .paused }
        // The first song written to its end; a whole turn after, nothing of the next one.
        try await waitUntil("tape.frames == album.samples(ofTrack: 0).count / 2") { tape.frames == album.samples(ofTrack: 0).count / 2 }
        try await aWholeTurn(of: engine)
        #expect(engine.status.queue.current == queue.entries[1].id)
        let heard = tape.samples.withLock { $0 }
        #expect(heard.count == album.samples(ofTrack: 0).count && firstDifference(heard, album.samples(ofTrack: 0)) == nil,
                "\(heard.count / 2) frames heard, the first song has \(album.samples(ofTrack: 0).count / 2)")
        engine.send(.queue(.play(nil)))
        _ = await events(of: engine)
        engine.quit()
        let both = album.samples(ofTrack: 0) + album.samples(ofTrack: 1)
        let all = tape.samples.withLock { $0 }
        #expect(all.count == both.count && firstDifference(all, both) == nil)
    }

    @Test func pauseHoldsTheOutputAndPlayResumesWhereItWas() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(4_096)
        let engine = PlaybackEngine(queue: album.queue([2]), sink: RecordingSink(tape: tape), songs: album.resolver())
        // Two slots written, the third held in the sink's write.
        try await waitUntil("tape.frames == 4_096 && tape.held.load(ordering: .acquiring) == 1") { tape.frames == 4_096 && tape.held.load(ordering: .acquiring) == 1 }
        engine.send(.queue(.pause))
        try await aWholeTurn(of: engine)
        tape.allow(.max)
        // The slot being written when the pause came goes out; the output then stops between slots.
        try await waitUntil("tape.frames == 6_144") { tape.frames == 6_144 }
        try await aWholeTurn(of: engine)
        #expect(tape.frames == 6_144, "the output went on while paused")
        #expect(engine.status.queue.state == .paused)
        engine.send(.queue(.play(nil)))
        _ = await events(of: engine)
        engine.quit()
        #expect(firstDifference(tape.samples.withLock { $0 }, album.samples(ofTrack: 2)) == nil)
    }

    /// Quitting reports the song being heard with reason `quit` and the position reached, and
    /// the final status holds the same frame, which is what the state file saves.
    @Test func quitReportsThePositionReached() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(6_144)
        let engine = PlaybackEngine(queue: album.queue([2]), sink: RecordingSink(tape: tape), songs: album.resolver())
        try await waitUntil("tape.frames == 6_144") { tape.frames == 6_144 }
        // Until the engine has counted what the sink took (a fixed 100 ms was not always
        // enough on a loaded machine: quit then reported frame 0 and no end).
        try await waitUntil("engine.status.frame == 6_144") { engine.status.frame == 6_144 }
        let collecting = Task { await events(of: engine, until: { if case .ended = $0 { true } else { false } }) }
        let quitting = Task { engine.quit() }
        // Once the decode thread has taken the quit and stops the output, the held-back write
        // gives up, unheard (before, the failed write would stop the queue first).
        try await waitUntil("engine.ring.quit.load(ordering: .acquiring)") { engine.ring.quit.load(ordering: .acquiring) }
        tape.abort()
        let final = await quitting.value
        let seen = await collecting.value
        #expect(final.frame == 6_144)
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.map(\.reason) == [.quit])
        #expect(ends.first.map { abs($0.position - 6_144.0 / 44_100) < 1e-9 } == true)
    }

    /// Resuming at a frame: the sink gets the track from that frame on.
    @Test func resumeStartsAtTheSavedFrame() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        let queue = album.queue([0, 1])
        let engine = PlaybackEngine(queue: queue, resume: ResumePoint(entry: queue.entries[0].id, frame: 12_345),
                                    sink: RecordingSink(tape: tape), songs: album.resolver())
        _ = await events(of: engine)
        engine.quit()
        let expected = Array(album.samples(ofTrack: 0).dropFirst(12_345 * 2) + album.samples(ofTrack: 1))
        #expect(firstDifference(tape.samples.withLock { $0 }, expected) == nil)
    }
}

/// A volume change is heard within a slot and a 10 ms glide, not after the second of
/// look-ahead the ring holds: the output thread scales what was rendered at the old volume.
@Suite struct EngineVolumeTests {
    @Test func aVolumeChangeIsHeardAtOnce() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(4_096)
        let engine = PlaybackEngine(queue: album.queue([2]), sink: RecordingSink(tape: tape), songs: album.resolver())
        try await waitUntil("tape.frames == 4_096") { tape.frames == 4_096 }
        // Track 2 decoded at volume 100, as far as the ring holds.
        try await decodedAhead(engine)
        var sound = SoundSettings()
        sound.volume = 50
        engine.send(.sound(sound))
        try await aWholeTurn(of: engine)
        tape.allow(.max)
        _ = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        let track = Array(album.samples(ofTrack: 2))
        // From one slot after the change (the one being written when it came) plus the glide.
        let from = (4_096 + 2_048 + 512) * 2, to = from + 8_192 * 2
        try #require(played.count >= to && track.count >= to, "played \(played.count / 2) frames")
        func rms(_ x: ArraySlice<Int32>) -> Double { (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot() }
        let db = 20 * log10(rms(played[from..<to]) / rms(track[from..<to]))
        #expect(abs(db - Volume.decibels(percent: 50)) < 0.5, "right after the change: \(db) dB, volume 50 is \(Volume.decibels(percent: 50)) dB")
        // Before the change: untouched.
        #expect(firstDifference(played[..<(4_096 * 2)], track[..<(4_096 * 2)]) == nil)
    }
}
