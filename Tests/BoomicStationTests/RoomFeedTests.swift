import BoomicAudio
import BoomicCore
@testable import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// A room's changes are told once each, in order, whether a front's command or the engine's
/// own report comes first.
@Suite struct RoomFeedTests {
    /// A `play` carried out while the player's thread is held in a decoder's open is told at
    /// once, by the command; the engine's report of the song's start, once the open is let go,
    /// tells nothing more. (A poll ordered the two, and each told it when the report came more
    /// than 100 ms before the command's own word.)
    @Test func aPlayWhoseStartIsReportedLateIsToldOnce() throws {
        let fixture = try StationFixture()
        let gate = OpenGate()
        let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                              outputs: [.null], settings: StationFixture.settings, opening: gate.hold, warn: { _ in })
        defer {
            gate.release()
            station.quitAll()
        }
        let told = Told(station)
        let room = try #require(station.player("default"))
        let started = DispatchSemaphore(value: 0)
        room.watch { if case .started = $0 { started.signal() } }
        try room.perform(.add(fixture.songs, at: .end))
        #expect(told.changes == [StationChange(room: "default", what: .queue)])
        let after = try room.perform(.play(nil))
        #expect(after.queue.state == .playing)
        #expect(gate.awaitHeld())
        #expect(told.count(.player) == 1, "told by the command: \(told.changes)")
        gate.release()
        // Watchers hear an event after the teller has.
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(told.count(.player) == 1, "\(told.changes)")
    }

    /// Songs that end by themselves: each change of song, and the stop at the queue's end, is
    /// told once, from the engine's own events (each sent after the status that shows it).
    @Test func songsThatEndByThemselvesAreToldOnceEach() throws {
        let fixture = try StationFixture(songs: 2, seconds: 1)
        let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                              outputs: [.null], settings: StationFixture.settings, warn: { _ in })
        defer { station.quitAll() }
        let told = Told(station)
        let room = try #require(station.player("default"))
        let idle = DispatchSemaphore(value: 0)
        room.watch { if case .idle = $0 { idle.signal() } }
        try room.perform(.add(fixture.songs, at: .end))
        try room.perform(.play(nil))
        #expect(idle.wait(timeout: .now() + 20) == .success)
        #expect(told.count(.player) == 3, "the play, the second song, the stop at the end: \(told.changes)")
    }

    /// A command and the engine's report of the same start, in either order, tell it once; a
    /// seek tells `player` though nothing compared moved; a `clear` of an empty queue tells
    /// the queue.
    @Test func commandsTellWhatTheyChangedOnce() throws {
        let fixture = try StationFixture()
        let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                              outputs: [.null], settings: StationFixture.settings, warn: { _ in })
        defer { station.quitAll() }
        let told = Told(station)
        let room = try #require(station.player("default"))
        let started = DispatchSemaphore(value: 0)
        room.watch { if case .started = $0 { started.signal() } }
        try room.perform(.add(fixture.songs, at: .end))
        try room.perform(.play(nil))
        #expect(started.wait(timeout: .now() + 10) == .success)
        try room.perform([.seek(to: 5)])
        try room.perform(.setRandom(true))
        try room.perform([.sound(SoundSettings(volume: 50))])
        try room.perform(.pause)
        try room.perform(.stop)
        try room.perform(.clear)
        try room.perform(.clear)
        #expect(told.changes.map(\.what) == [.queue, .player, .player, .options, .volume, .player, .player, .queue, .queue],
                "\(told.changes.map(\.what.rawValue))")
    }

    /// What a front is told for a change of the status.
    @Test func theDifferenceOfTwoStatuses() {
        let songs = (0..<3).map { _ in SongID(UUID()) }
        let stopped = PlaybackStatus(queue: PlayQueue(seed: 1).applying(.add(songs, at: .end)))
        var playing = stopped
        playing.queue.apply(.play(nil))
        playing.entry = playing.queue.current
        #expect(RoomTeller.difference(from: stopped, to: stopped).isEmpty)
        #expect(RoomTeller.difference(from: stopped, to: playing) == .player)
        var next = playing
        next.queue.apply(.next)
        next.entry = next.queue.current
        #expect(RoomTeller.difference(from: playing, to: next) == .player)
        var again = playing
        again.queue.apply(.setRepeat(.one))
        #expect(RoomTeller.difference(from: playing, to: again) == .options)
        var restarted = again
        restarted.queue.apply(.finished)
        #expect(RoomTeller.difference(from: again, to: restarted) == .player, "`repeat one` begins the song again")
        // A stopped queue's current entry moving (a delete) is no change of the player.
        var deleted = stopped
        deleted.queue.apply(.remove([stopped.queue.entries[0].id]))
        #expect(RoomTeller.difference(from: stopped, to: deleted) == .queue)
        var louder = stopped
        louder.sound.volume = 20
        #expect(RoomTeller.difference(from: stopped, to: louder) == .volume)
    }
}
