import BoomicAudio
import BoomicCore
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// Every room resolves a song the same way, `boomic play`'s and `boomic serve`'s alike: an
/// audiobook starts at its bookmark, at the speed it was left at, unless the front was given
/// a speed (`--speed`). (The server's rooms played it at speed 1.)
@Suite struct BookmarkSpeedTests {
    private func speedHeard(speedGiven: Bool) throws -> (speed: Double, position: Double) {
        let fixture = try StationFixture(songs: 1, seconds: 30) { song in
            song.tags = ["audiobook"]
            song.bookmark = 10
            song.bookmarkSpeed = 2
        }
        var settings = StationFixture.settings
        settings.speedGiven = speedGiven
        let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                              outputs: [.null], settings: settings, warn: { _ in })
        defer { station.quitAll() }
        let room = try #require(station.player("default"))
        let started = DispatchSemaphore(value: 0)
        room.watch { if case .started = $0 { started.signal() } }
        try room.perform(.add(fixture.songs, at: .end))
        try room.perform(.play(nil))
        #expect(started.wait(timeout: .now() + 10) == .success)
        try waitUntil("the room to play 10 s in") { room.status.position >= 10 }
        return (room.status.sound.speed, room.status.position)
    }

    @Test func anAudiobookPlaysAtItsBookmarksSpeedInEveryRoom() throws {
        let heard = try speedHeard(speedGiven: false)
        #expect(heard.speed == 2 && heard.position >= 10 && heard.position < 15, "\(heard)")
    }

    @Test func aSpeedGivenToTheFrontWins() throws {
        let heard = try speedHeard(speedGiven: true)
        #expect(heard.speed == 1 && heard.position >= 10 && heard.position < 15, "\(heard)")
    }
}
