import BoomicTestSupport
import BoomicAudio
import BoomicCore
import BoomicPlayback
import Foundation
import Testing

/// A queue entry that plays a part of its file (MPD's `rangeid`, a CUE track): the engine opens
/// the file at the range's start, ends the song at its end and hands over to the next entry
/// there with no gap; positions and lengths count from the range's start, as MPD's do. And a file
/// that ends before the length the library knows is no song heard to its end.
@Suite struct EngineRangeTests {
    /// Track 1 (54,114 frames) with the range 0.25–0.75 s, then track 2: the sink gets exactly
    /// frames 11,025 to 33,075 of track 1, then all of track 2.
    @Test func aRangedEntryPlaysItsPartThenHandsOverWithNoGap() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        var queue = PlayQueue(seed: 1).applying(.add([album.songs[1].id, album.songs[2].id], at: .end))
        queue.apply(.setRange(PlayRange(start: 0.25, end: 0.75), queue.entries[0].id))
        queue.apply(.play(nil))
        let engine = PlaybackEngine(queue: queue, sink: RecordingSink(tape: tape), songs: album.resolver())
        let seen = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        let part = album.samples(ofTrack: 1).dropFirst(11_025 * 2).prefix((33_075 - 11_025) * 2)
        let expected = Array(part + album.samples(ofTrack: 2))
        #expect(played.count == expected.count, "\(played.count / 2 - expected.count / 2) frames too many (+) or few (-)")
        #expect(firstDifference(played, expected) == nil, "first difference at sample \(firstDifference(played, expected) ?? -1)")
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.map(\.reason) == [.finished, .finished] && ends.map(\.endedEarly) == [false, false])
        #expect(abs(ends[0].heard - 0.5) < 1e-9 && abs((ends[0].duration ?? 0) - 0.5) < 1e-9, "\(ends[0])")
    }

    /// While a ranged entry plays, `position` (MPD's `elapsed`) counts from the range's start and
    /// `duration` is the range's length; a seek is in that time too.
    @Test func positionsCountFromTheRangesStart() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(4_096)
        var queue = PlayQueue(seed: 1).applying(.add([album.songs[1].id], at: .end))
        queue.apply(.setRange(PlayRange(start: 0.5), queue.entries[0].id))
        queue.apply(.play(nil))
        let engine = PlaybackEngine(queue: queue, sink: RecordingSink(tape: tape), songs: album.resolver())
        // Two slots of 2,048 frames heard, from the range's start at frame 22,050.
        try await waitUntil("tape.frames == 4_096 && engine.status.frame == 22_050 + 4_096") { tape.frames == 4_096 && engine.status.frame == 22_050 + 4_096 }
        #expect(abs(engine.status.position - 4_096.0 / 44_100) < 1e-9, "position \(engine.status.position)")
        let total = Double(album.bounds[2] - album.bounds[1]) / 44_100
        #expect(abs((engine.status.duration ?? 0) - (total - 0.5)) < 1e-6, "duration \(engine.status.duration ?? -1)")
        engine.perform([.seek(to: 0.2)])
        try await aWholeTurn(of: engine)
        tape.allow(.max)
        let seen = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        // After the seek, the file from the range's start plus 0.2 s; before it, what played from
        // the range's start (the slot the sink held when the seek came may follow, as in any seek).
        let tail = Array(album.samples(ofTrack: 1).dropFirst((22_050 + 8_820) * 2))
        let head = played.count - tail.count
        #expect(head >= 4_096 * 2 && head <= 6_144 * 2, "\(head / 2) frames before the seek")
        #expect(firstDifference(played[..<head], album.samples(ofTrack: 1).dropFirst(22_050 * 2).prefix(head)) == nil)
        #expect(firstDifference(played[head...], tail) == nil, "after the seek the file does not go on from 0.2 s into the range")
        #expect(seen.contains { if case .ended = $0 { true } else { false } })
    }

    /// Track 0 lasts 0.84 s; told the library knows it as 3 s long (the file was cut since), its
    /// end is early and it counts by what was heard: a skip. Known as 1.5 s, the second short of
    /// it is within what decoders and tags disagree by: a song heard to its end.
    @Test func aFileEndingBeforeItsKnownLengthCountsByWhatWasHeard() async throws {
        let album = try ToneAlbum()
        for (known, early) in [(3.0, true), (1.5, false)] {
            var song = album.songs[0]
            song.duration = known
            let resolved = song
            let engine = PlaybackEngine(queue: PlayQueue(seed: 1).applying(.add([song.id], at: .end)).applying(.play(nil)),
                                        sink: RecordingSink(tape: RecordingSink.Tape()), songs: { _ in resolved })
            let seen = await events(of: engine)
            engine.quit()
            let end = try #require(seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }.first)
            #expect(end.reason == .finished && end.endedEarly == early, "known as \(known) s: \(end)")
            let outcome = PlayCounting.outcome(heard: end.heard, duration: end.duration, ending: end.endedEarly ? .movedOn : .finished)
            #expect(outcome == (early ? .skipped : .played), "known as \(known) s: \(outcome)")
        }
    }
}
