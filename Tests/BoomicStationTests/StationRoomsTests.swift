import BoomicAudio
import BoomicCore
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Foundation
import Synchronization
import Testing

/// The station's rooms: made, moved to and removed by MPD's rules for partitions, told to its
/// fronts in order; an output hung in one call for the hang limit is dropped, on the station's
/// own clock.
@Suite struct StationRoomsTests {
    /// The error `body` threw, by its case's name (nil when it threw none).
    private func failure(_ body: () throws(StationError) -> Void) -> String? {
        do throws(StationError) { try body() } catch { return String(describing: error) }
        return nil
    }

    @Test func roomsAreMadeMovedToAndRemovedByTheRules() throws {
        let fixture = try StationFixture(songs: 1, seconds: 1)
        let occupied = Mutex<Set<String>>([])
        let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                              outputs: [.null], settings: StationFixture.settings,
                              isOccupied: { name in occupied.withLock { $0.contains(name) } }, warn: { _ in })
        defer { station.quitAll() }
        let told = Told(station)
        try station.create("Kitchen")
        #expect(station.names == ["default", "Kitchen"])
        #expect(failure { () throws(StationError) in try station.create("Kitchen") } == "roomExists")
        #expect(failure { () throws(StationError) in try station.create("no spaces") } == "badName")
        #expect(failure { () throws(StationError) in try station.delete("default") } == "defaultRoomStays")
        #expect(failure { () throws(StationError) in try station.delete("Attic") } == "noSuchRoom")
        #expect(failure { () throws(StationError) in try station.move(output: "alsa", to: "Kitchen") } == "noSuchOutput")
        try station.move(output: "null", to: "Kitchen")
        #expect(station.outputs(of: "Kitchen").map(\.name) == ["null"] && station.outputs(of: "default").isEmpty)
        #expect(failure { () throws(StationError) in try station.delete("Kitchen") } == "roomHasOutputs")
        try station.move(output: "null", to: "default")
        occupied.withLock { $0 = ["Kitchen"] }
        #expect(failure { () throws(StationError) in try station.delete("Kitchen") } == "roomOccupied")
        occupied.withLock { $0 = [] }
        try station.delete("Kitchen")
        #expect(station.names == ["default"])
        #expect(told.changes.filter { $0.room == nil } == [
            StationChange(room: nil, what: .rooms), StationChange(room: nil, what: .outputs),
            StationChange(room: nil, what: .outputs), StationChange(room: nil, what: .rooms),
        ])
    }

    /// The layout comes back with a restarted station: a room with an output, and an output
    /// switched off.
    @Test func theLayoutComesBack() throws {
        let fixture = try StationFixture(songs: 1, seconds: 1)
        do {
            let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                                  outputs: [.null, .wav(path: fixture.dir.path + "/out.wav")],
                                  settings: StationFixture.settings, warn: { _ in })
            try station.create("Kitchen")
            try station.move(output: "null", to: "Kitchen")
            station.setEnabled(output: 1, false)
            station.quitAll()
        }
        let again = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                            outputs: [.null, .wav(path: fixture.dir.path + "/out.wav")],
                            settings: StationFixture.settings, warn: { _ in })
        defer { again.quitAll() }
        #expect(again.names == ["default", "Kitchen"])
        #expect(again.outputs(of: "Kitchen").map(\.name) == ["null"])
        #expect(!again.isEnabled(output: 1) && again.isEnabled(output: 0))
    }

    /// A clock the test moves.
    final class HandClock: Sendable {
        private let now = Mutex(ContinuousClock.now)
        var instant: ContinuousClock.Instant { now.withLock { $0 } }
        func advance(_ by: Duration) { now.withLock { $0 += by } }
    }

    /// An output in the same call (an open of a pipe nobody reads) for `hangLimit` on the
    /// station's clock is switched off, and its room plays on without it; a shorter call is
    /// left alone. No real time passes but the open's.
    @Test func anOutputInOneCallForTheHangLimitIsDropped() throws {
        let fixture = try StationFixture(songs: 1, seconds: 5)
        let pipe = fixture.dir.path + "/pipe.wav"
        #expect(mkfifo(pipe, 0o644) == 0)
        let clock = HandClock()
        let warnings = Mutex<[String]>([])
        let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                              outputs: [.wav(path: pipe)], settings: StationFixture.settings, clock: { clock.instant },
                              warn: { line in warnings.withLock { $0.append(line) } })
        let ticker = OutputWatchdogTests.HandTicker()
        station.watchOutputs(ticker: ticker)
        // The player held in the pipe's open is left behind, as the station leaves it.
        defer { station.quitAll() }
        let told = Told(station)
        let room = try #require(station.player("default"))
        try room.perform(.add(fixture.songs, at: .end))
        try room.perform(.play(nil))
        try waitUntil("the output in a call") { station.isInCall(output: 0) }
        #expect(ticker.fire())  // the call is first seen
        clock.advance(Station.hangLimit - .milliseconds(1))
        #expect(ticker.fire())
        #expect(station.isEnabled(output: 0), "a call shorter than the limit is no hang")
        clock.advance(.milliseconds(1))
        #expect(ticker.fire())
        #expect(!station.isEnabled(output: 0))
        #expect(warnings.withLock { $0 }.contains { $0.hasPrefix("output wav:\(pipe) hangs") }, "\(warnings.withLock { $0 })")
        #expect(told.changes.contains { $0.what.contains(.outputSwitched) && $0.switched?.on == false })
        let player = try #require(station.player("default"))
        #expect(player !== room, "the room's player was replaced")
        #expect(!station.isInCall(output: 0))
    }

    /// `letGo` of an output switched off while in a call (an open of a pipe nobody reads) waits
    /// for that call's end: when it returns (a reader comes), the room keeps its player.
    @Test func lettingGoOfAnOutputWhoseCallReturnsKeepsThePlayer() throws {
        let fixture = try StationFixture(songs: 1, seconds: 5)
        let pipe = fixture.dir.path + "/pipe.wav"
        #expect(mkfifo(pipe, 0o644) == 0)
        let warnings = Mutex<[String]>([])
        var reader: Int32 = -1
        defer { if reader >= 0 { close(reader) } }
        let station = Station(library: fixture.library, store: try PlayerStateStore(libraryLocation: fixture.dir.path),
                              outputs: [.wav(path: pipe)], settings: StationFixture.settings,
                              warn: { line in warnings.withLock { $0.append(line) } })
        defer { station.quitAll() }
        let room = try #require(station.player("default"))
        try room.perform(.add(fixture.songs, at: .end))
        try room.perform(.play(nil))
        try waitUntil("the output in its open") { station.isInCall(output: 0) }
        station.setEnabled(output: 0, false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            station.letGo(output: 0)
            done.signal()
        }
        reader = open(pipe, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(station.player("default") === room, "the room keeps its player")
        #expect(!warnings.withLock { $0 }.contains { $0.contains("hangs") }, "\(warnings.withLock { $0 })")
    }
}
