import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Dispatch
import Foundation
import Testing

/// A resumed play keeps its key and place until its track starts: a state saved while the
/// track is still being opened names the same play, so a second crash and resume count the song
/// once (`PlayCrashTests.killedAndResumedPlaysCountEachSongOnce` counted one twice under load).
@Suite struct ResumeKeyTests {
    /// A saved state at a place in the fixture's first song, in the play `key`.
    private func savedPlace(_ fixture: StationFixture, playing: Bool) throws -> (PlayerState, PlayKey) {
        var queue = PlayQueue(seed: 1).applying(.add(fixture.songs, at: .end))
        let entry = try #require(queue.entries.first?.id)
        if playing { queue.apply(.play(nil)) }
        let key = PlayKey(entry: entry, started: 1_234_567)
        let song = fixture.session.basis[fixture.songs[0]]
        return (PlayerState(queue: queue, entry: entry, frame: 44_100, play: key, song: song), key)
    }

    /// The engine's first turn is held in the resumed song's open (a sleeping disk's): a save
    /// then, before the engine has said anything, leaves the saved place as it was.
    @Test func aSaveWhileTheResumedSongOpensKeepsItsPlay() throws {
        let fixture = try StationFixture(songs: 1, seconds: 5)
        let store = try PlayerStateStore(libraryLocation: fixture.dir.path)
        let (saved, key) = try savedPlace(fixture, playing: true)
        try store.save(saved)
        let gate = OpenGate()
        let settings = RoomSettings(sound: SoundSettings(), realtime: false, record: false, keepsVolume: false, warnsEvents: false)
        let station = Station(oneRoom: fixture.library, store: store, output: .null, settings: settings, start: .resumed,
                              opening: gate.hold, warn: { _ in })
        let room = try #require(station.player("default"))
        defer {
            gate.release()
            room.quit()
        }
        #expect(gate.awaitHeld())
        room.saveState()
        let now = try #require(try store.load())
        #expect(now.entry == saved.entry && now.play == key && now.frame == 44_100,
                "saved \(String(describing: now.entry)) \(String(describing: now.play)) \(now.frame)")
    }

    /// A stopped room comes back at its saved place: the engine's first turn publishes the
    /// queue's current entry with no play and no frame (nothing is opened yet), and a save of
    /// that status keeps the saved play and place.
    @Test func aSaveAfterTheEnginesFirstTurnKeepsThePlay() throws {
        let fixture = try StationFixture(songs: 1, seconds: 5)
        let store = try PlayerStateStore(libraryLocation: fixture.dir.path)
        let (saved, key) = try savedPlace(fixture, playing: false)
        try store.save(saved)
        let station = Station(library: fixture.library, store: store, outputs: [.null], settings: StationFixture.settings,
                              warn: { _ in })
        defer { station.quitAll() }
        let room = try #require(station.player("default"))
        try waitUntil("the engine's first turn") { room.engine.hasTakenFirstTurn }
        #expect(room.status.play == nil, "the engine's status names no play before the song opens")
        room.saveState()
        let now = try #require(try store.load())
        #expect(now.entry == saved.entry && now.play == key && now.frame == 44_100,
                "saved \(String(describing: now.entry)) \(String(describing: now.play)) \(now.frame)")
    }
}
