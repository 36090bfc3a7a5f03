import BoomicAudio
import BoomicCore
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// A room's state file, written by its one writer: the queue a room was given as soon as the
/// engine has taken it, the final place and volume at the quit.
@Suite struct StateWriterTests {
    @Test func aGivenQueueIsSavedOnceTheEngineTookIt() throws {
        let fixture = try StationFixture(songs: 2, seconds: 5)
        let store = try PlayerStateStore(libraryLocation: fixture.dir.path)
        // An earlier run's queue, which a crash now must not bring back.
        try store.save(PlayerState(queue: PlayQueue(seed: 3), entry: nil, frame: 0, song: nil))
        let queue = PlayQueue(seed: 1).applying(.add(fixture.songs, at: .end))
        let settings = RoomSettings(sound: SoundSettings(), realtime: true, record: false, keepsVolume: false, warnsEvents: false)
        let station = Station(oneRoom: fixture.library, store: store, output: .null, settings: settings, start: .queue(queue),
                              warn: { _ in })
        let room = try #require(station.player("default"))
        defer { room.quit() }
        try waitUntil("the queue saved") { (try? store.load())?.queue.entries.map(\.song) == fixture.songs }
        #expect(try store.load()?.volume == nil, "a front that keeps no volume saves none")
    }

    @Test func theQuitSavesTheFinalPlaceAndVolume() throws {
        let fixture = try StationFixture(songs: 2, seconds: 30)
        let store = try PlayerStateStore(libraryLocation: fixture.dir.path)
        let station = Station(library: fixture.library, store: store, outputs: [.null], settings: StationFixture.settings,
                              warn: { _ in })
        let room = try #require(station.player("default"))
        let started = DispatchSemaphore(value: 0)
        room.watch { if case .started = $0 { started.signal() } }
        try room.perform(.add(fixture.songs, at: .end))
        try room.perform(.play(nil))
        #expect(started.wait(timeout: .now() + 10) == .success)
        try room.perform([.seek(to: 12), .sound(SoundSettings(volume: 40)), .queue(.pause)])
        let before = room.status
        #expect(room.quit())
        let saved = try #require(try store.load())
        #expect(saved.queue.state == .paused && saved.entry == before.entry && saved.volume == 40)
        #expect(saved.play != nil && saved.play == before.play)
        #expect(abs(saved.frame - 12 * 44_100) < 44_100 / 10, "\(saved.frame)")
    }
}
