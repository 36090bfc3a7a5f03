import BoomicAudio
import BoomicCore
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Foundation
import Synchronization
import Testing

/// `boomic play`'s one room has the server's watchdog: an output in the same call (a write to
/// a hung sound card, an open of a pipe nobody reads) for `hangLimit` on the station's clock is
/// switched off and its player left behind, its queue saved. The room has no other output, so
/// its front is told the output failed and the run ends (`--resume` goes on from there).
@Suite struct OneRoomHangTests {
    /// The events the room's front heard.
    final class Heard: Sendable {
        let events = Mutex<[PlaybackEvent]>([])
        func add(_ event: PlaybackEvent) { events.withLock { $0.append(event) } }
        var failures: [AudioError] { events.withLock { $0.compactMap { if case let .failed(e) = $0 { e } else { nil } } } }
    }

    @Test func anOutputInOneCallForTheHangLimitEndsTheRun() throws {
        let fixture = try StationFixture(songs: 1, seconds: 5)
        let pipe = fixture.dir.path + "/pipe.wav"
        #expect(mkfifo(pipe, 0o644) == 0)
        let store = try PlayerStateStore(libraryLocation: fixture.dir.path)
        let heard = Heard(), clock = StationRoomsTests.HandClock()
        let queue = PlayQueue(seed: 1).applying(.add(fixture.songs, at: .end))
        let station = Station(oneRoom: fixture.library, store: store, output: .wav(path: pipe), settings: StationFixture.settings,
                              start: .queue(queue), watch: { heard.add($0) }, clock: { clock.instant }, warn: { _ in })
        let ticker = OutputWatchdogTests.HandTicker()
        station.watchOutputs(ticker: ticker)
        defer { station.stopWatchingOutputs() }
        let room = try #require(station.player("default"))
        defer { room.quit() }
        try waitUntil("the output in its open") { station.isInCall(output: 0) }
        #expect(ticker.fire())  // the call is first seen
        clock.advance(Station.hangLimit - .milliseconds(1))
        #expect(ticker.fire())
        #expect(heard.failures.isEmpty && station.isEnabled(output: 0), "a call shorter than the limit is no hang")
        clock.advance(.milliseconds(1))
        #expect(ticker.fire())
        #expect(heard.failures.map(\.path) == ["wav:\(pipe)"], "\(heard.events.withLock { $0 })")
        #expect(!station.isEnabled(output: 0))
        #expect(!room.quit(), "the player stuck in the call is left behind")
        let saved = try #require(try store.load())
        #expect(saved.queue.entries.map(\.song) == fixture.songs, "the queue is saved for --resume")
    }
}
