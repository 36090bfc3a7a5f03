import BoomicTestSupport
import BoomicAudio
import BoomicCore
@testable import BoomicPlayback
import Foundation
import Testing

/// The engine hands songs over with no gap: what reaches the sink is the tracks' samples back to
/// back, which for tracks cut from one tone is the tone itself, also when the queue changes what
/// plays next while the next song is already decoded ahead.
@Suite struct EngineGaplessTests {
    @Test func anAlbumPlaysIntoTheOriginal() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        let engine = PlaybackEngine(queue: album.queue(), sink: RecordingSink(tape: tape), songs: album.resolver())
        let seen = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        #expect(played.count == album.tone.count, "\(played.count / 2 - album.tone.count / 2) frames of gap (+) or overlap (-)")
        #expect(firstDifference(played, album.tone) == nil, "first difference at sample \(firstDifference(played, album.tone) ?? -1)")
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.map(\.reason) == [.finished, .finished, .finished])
        #expect(ends.map(\.song) == album.songs.map(\.id))
        for (i, e) in ends.enumerated() {
            let frames = album.bounds[i + 1] - album.bounds[i]
            #expect(abs(e.heard - Double(frames) / 44_100) < 1e-9, "track \(i) heard \(e.heard) s")
        }
        #expect(tape.formats.withLock { $0 } == [PCMFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 16)],
                "one format, prepared once: no reopening between songs of one format")
        #expect(engine.status.queue.state == .stopped)
    }

    /// The next song is decoded ahead while the first one plays; removing it from the queue then
    /// must play the one after it instead, still with no gap after the first.
    @Test func removingTheSongDecodedAheadPlaysTheOneAfter() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(10_240)
        let queue = album.queue()
        let second = queue.entries[1].id
        let engine = PlaybackEngine(queue: queue, sink: RecordingSink(tape: tape), songs: album.resolver())
        // Track 0 is 37,003 frames; the ring (24 × 2048) then holds its rest and the start of 1.
        try await waitUntil("10,240 frames heard") { tape.frames == 10_240 }
        try await decodedAhead(engine)
        engine.send(.queue(.remove([second])))
        try await aWholeTurn(of: engine)
        tape.allow(.max)
        _ = await events(of: engine)
        engine.quit()
        let played = tape.samples.withLock { $0 }
        let expected = Array(album.samples(ofTrack: 0) + album.samples(ofTrack: 2))
        #expect(played.count == expected.count, "\(played.count / 2 - expected.count / 2) frames off")
        #expect(firstDifference(played, expected) == nil, "first difference at sample \(firstDifference(played, expected) ?? -1)")
    }

    /// `next` near the end of a song: what was decoded ahead is thrown away, the device buffer is
    /// dropped, and the song after plays from its start.
    @Test func nextSkipsAndCountsTheSkip() async throws {
        let album = try ToneAlbum()
        let tape = RecordingSink.Tape()
        tape.allow(8_192)
        let engine = PlaybackEngine(queue: album.queue(), sink: RecordingSink(tape: tape), songs: album.resolver())
        try await waitUntil("8,192 frames heard") { tape.frames == 8_192 }
        engine.send(.queue(.next))
        try await aWholeTurn(of: engine)
        tape.allow(.max)
        let seen = await events(of: engine)
        engine.quit()
        #expect(tape.discards.load(ordering: .relaxed) == 1, "the device's buffer is dropped once")
        let played = tape.samples.withLock { $0 }
        // What was written before the skip (the gate lets at most one more slot through), then
        // tracks 1 and 2 whole.
        let rest = Array(album.samples(ofTrack: 1) + album.samples(ofTrack: 2))
        let head = played.count - rest.count
        #expect(head >= 8_192 * 2 && head <= (8_192 + 2_048) * 2, "\(head / 2) frames of track 0 before the skip")
        #expect(firstDifference(played[head...], rest) == nil)
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.map(\.reason) == [.skipped, .finished, .finished])
        #expect(ends.first.map { $0.heard < 0.3 } == true, "heard \(ends.first?.heard ?? -1) s of the skipped song")
    }

    @Test func aMissingFileIsSkippedWithOneWarning() async throws {
        let album = try ToneAlbum()
        try FileManager.default.removeItem(atPath: album.songs[1].path)
        let tape = RecordingSink.Tape()
        let engine = PlaybackEngine(queue: album.queue(), sink: RecordingSink(tape: tape), songs: album.resolver())
        let seen = await events(of: engine)
        engine.quit()
        let warnings = seen.compactMap { if case let .warning(w) = $0 { w } else { nil } }
        #expect(warnings.count == 1 && warnings[0].contains("t1.flac"), "\(warnings)")
        let expected = Array(album.samples(ofTrack: 0) + album.samples(ofTrack: 2))
        #expect(firstDifference(tape.samples.withLock { $0 }, expected) == nil)
    }
}

