@testable import BoomicHTTP
import BoomicCore
import BoomicPlayback
import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// The rooms' event stream (`GET api/rooms/events`) over a real loopback port and a station on
/// the null output: its first event is every room, a change made through the station (as an
/// MPD client's command makes it) follows as a `room` event, a browser that stalls holds up
/// neither the station nor the other pages, and the stream needs a session and ends with it.
@Suite(.serialized)
struct RoomEventsTests {
    @Test func theFirstEventIsEveryRoomAndAChangeFollows() async throws {
        let f = try await RoomsFixture()
        try f.play()
        let stream = try f.events()
        try await waitUntil("the first event") { !stream.events.isEmpty }
        let head = try #require(stream.head)
        #expect(head.status == 200 && head.headers["content-type"]?.hasPrefix("text/event-stream") == true, "\(head)")
        #expect(head.headers["x-accel-buffering"] == "no" && head.headers["cache-control"] == "no-store", "\(head)")
        #expect(stream.body.hasPrefix("retry: "), "\(stream.body.prefix(100))")
        let first = try #require(stream.events.first)
        #expect(first.name == "state")
        let rooms = try #require(first.object["rooms"] as? [[String: Any]])
        #expect(rooms.map { $0["name"] as? String } == ["default"])
        let room = rooms[0]
        #expect(room["state"] as? String == "play")
        #expect((room["song"] as? [String: Any])?["title"] as? String == "Tone 0", "\(room)")
        #expect(((room["queue"] as? [String: Any])?["entries"] as? [Any])?.count == 3, "\(room)")

        // A change through the station, as MPD's `setvol 42` makes it: told within the second.
        var sound = f.room.status.sound
        sound.volume = 42
        let start = ContinuousClock.now
        try f.room.perform([.sound(sound)])
        try await waitUntil("the volume's event") { stream.events.contains { $0.name == "room" && $0.object["volume"] as? Int == 42 } }
        #expect(ContinuousClock.now - start < .seconds(1))
        // `next`: the room's next song, and a queue change carries the queue.
        try f.room.perform([.queue(.next)])
        try await waitUntil("the next song's event") {
            stream.events.contains { ($0.object["song"] as? [String: Any])?["title"] as? String == "Tone 1" }
        }
        try f.room.perform([.queue(.add([f.songs[0]], at: .end))])
        try await waitUntil("the queue's event") {
            stream.events.contains { (($0.object["queue"] as? [String: Any])?["length"] as? Int) == 4 }
        }
        let ids = stream.events.compactMap { $0.id.flatMap(Int.init) }
        #expect(ids == Array(0..<ids.count), "ids count up: \(ids)")
        stream.close()
        await f.stop()
    }

    /// A reconnect (the browser's EventSource sends `Last-Event-ID`) gets the whole state again.
    @Test func aReconnectGetsTheWholeStateAgain() async throws {
        let f = try await RoomsFixture()
        try f.play()
        let stream = try f.events(headers: ["Last-Event-ID": "7"])
        try await waitUntil("the first event") { !stream.events.isEmpty }
        #expect(stream.events.first?.name == "state" && (stream.events.first?.object["rooms"] as? [Any])?.count == 1)
        stream.close()
        await f.stop()
    }

    /// A page that stops reading: the station's commands go on at once (its feed never waits
    /// for a stream), another page keeps getting events, and the stalled stream's backlog is
    /// not kept (each room is sent as it is when its writer gets to it).
    @Test func aStalledPageHoldsUpNeitherTheStationNorOtherPages() async throws {
        let f = try await RoomsFixture()
        // A long queue, so that each event is large and the stalled stream's socket fills.
        try f.room.perform([.queue(.add(Array(repeating: f.songs, count: 100).flatMap { $0 }, at: .end))])
        let stalled = try f.events(reads: false)
        let live = try f.events()
        try await waitUntil("both streams to be open") { f.front.roomFeed.streams == 2 }
        let start = ContinuousClock.now
        for i in 0..<300 {
            try f.room.perform([.queue(.add([f.songs[i % 3]], at: .end))])
        }
        #expect(ContinuousClock.now - start < .seconds(3), "the station's commands never wait for a page")
        try await waitUntil("the live page to see the last change") {
            live.events.contains { (($0.object["queue"] as? [String: Any])?["length"] as? Int) == 600 }
        }
        #expect(live.events.count < 300, "changes that come together are sent as one: \(live.events.count)")
        stalled.close()
        live.close()
        try await waitUntil("the streams to end") { f.front.roomFeed.streams == 0 }
        await f.stop()
    }

    /// The stream needs a session: none is 401 as JSON; logout ends the session's streams.
    @Test func theStreamNeedsASessionAndEndsWithIt() async throws {
        let f = try await RoomsFixture()
        let none = try await RawHTTP.get(f.port, "/api/rooms/events")
        #expect(none.status == 401 && none.body.contains("error"), "\(none)")
        let stream = try f.events()
        try await waitUntil("the first event") { !stream.events.isEmpty }
        #expect(try await f.post("logout").status == 204)
        try await waitUntil("the stream to end at logout") { stream.isEnded }
        await f.stop()
    }

    /// The server stops promptly with a stream open (SIGTERM's path in `boomic serve`).
    @Test func theServerStopsWithAStreamOpen() async throws {
        let f = try await RoomsFixture()
        let stream = try f.events()
        try await waitUntil("the first event") { !stream.events.isEmpty }
        let start = ContinuousClock.now
        await f.stop()
        #expect(ContinuousClock.now - start < .seconds(5))
        try await waitUntil("the stream to end") { stream.isEnded }
    }
}
