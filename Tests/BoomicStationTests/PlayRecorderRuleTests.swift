import BoomicCore
@testable import BoomicPlayback
import BoomicStation
import Foundation
import Testing

/// The rule that turns a song's end into a play: what is counted, and by which key.
@Suite struct PlayRecorderRuleTests {
    private func end(_ reason: SongEndReason, heard: Double, duration: Double? = 200, early: Bool = false) -> SongEnd {
        SongEnd(entry: PlayQueue.EntryID(3), song: SongID(UUID(uuidString: "00000000-0000-0000-0000-000000000007")!), key: PlayKey(entry: PlayQueue.EntryID(3), started: 1_000),
                heard: heard, position: heard, duration: duration, reason: reason, endedEarly: early)
    }

    @Test func aSongHeardToItsEndIsAPlayUnderItsKey() throws {
        let record = try #require(PlayRecorder.record(for: end(.finished, heard: 200), song: nil, at: Date(timeIntervalSince1970: 5)))
        #expect(record.outcome == .played && record.key == PlayKey(entry: PlayQueue.EntryID(3), started: 1_000) && record.time == 5)
    }

    @Test func movingOnCountsByWhatWasHeard() throws {
        #expect(PlayRecorder.record(for: end(.skipped, heard: 20), song: nil)?.outcome == .skipped)
        #expect(PlayRecorder.record(for: end(.skipped, heard: 120), song: nil)?.outcome == .played)
        #expect(PlayRecorder.record(for: end(.stopped, heard: 20), song: nil)?.outcome == .skipped)
        // A file that ends early counts as moved on from, not as heard to its end.
        #expect(PlayRecorder.record(for: end(.finished, heard: 20, early: true), song: nil)?.outcome == .skipped)
    }

    @Test func aQuitOrAFailureOfASongWithoutABookmarkRecordsNothing() {
        #expect(PlayRecorder.record(for: end(.quit, heard: 150), song: nil) == nil)
        #expect(PlayRecorder.record(for: end(.failed, heard: 0), song: nil) == nil)
    }
}
