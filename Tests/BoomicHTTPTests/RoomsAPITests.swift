@testable import BoomicHTTP
import BoomicCore
import BoomicPlayback
import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// The rooms page's controls over a real loopback port: each carries out on the room's player
/// what MPD's command does, needs the session's CSRF token, and names a room that exists.
@Suite(.serialized)
struct RoomsAPITests {
    @Test func theControlsDriveTheRoomsPlayer() async throws {
        let f = try await RoomsFixture()
        try f.play()
        let paused = try await f.post("rooms/default/pause")
        #expect(paused.status == 200 && f.room.status.queue.state == .paused, "\(paused)")
        #expect(try WebSessionTests.object(paused)["state"] as? String == "pause")
        #expect(try await f.post("rooms/default/play").status == 200 && f.room.status.queue.state == .playing)
        // `next` while paused plays the song moved to, as MPD's does.
        #expect(try await f.post("rooms/default/pause").status == 200)
        #expect(try await f.post("rooms/default/next").status == 200)
        #expect(f.room.status.queue.state == .playing && f.room.status.queue.currentSong == f.songs[1])
        #expect(try await f.post("rooms/default/previous").status == 200 && f.room.status.queue.currentSong == f.songs[0])
        #expect(try await f.post("rooms/default/volume", #"{"volume": 35}"#).status == 200 && f.room.status.sound.volume == 35)
        #expect(try await f.post("rooms/default/volume", #"{"volume": 101}"#).status == 400)
        #expect(try await f.post("rooms/default/seek", #"{"position": 20}"#).status == 200)
        try await waitUntil("the seek") { f.room.status.position >= 20 }
        let third = try #require(f.room.status.queue.entries.last?.id)
        let played = try await f.post("rooms/default/play", #"{"entry": \#(third.rawValue)}"#)
        #expect(played.status == 200 && f.room.status.queue.current == third, "\(played)")
        #expect(try await f.post("rooms/default/play", #"{"entry": 9999}"#).status == 404)
        let added = try await f.post("rooms/default/add", #"{"song": "\#(CatalogID.song(f.songs[2]))"}"#)
        #expect(added.status == 200 && f.room.status.queue.entries.count == 4, "\(added)")
        #expect(try await f.post("rooms/default/add", #"{"song": "../etc/passwd"}"#).status == 404)
        let all = try WebSessionTests.object(try await RawHTTP.get(f.port, "/api/rooms", headers: ["Cookie": f.cookie]))
        #expect((all["rooms"] as? [[String: Any]])?.first?["volume"] as? Int == 35, "\(all)")
        await f.stop()
    }

    /// A control without the token is 403 and changes nothing; without a session 401; an unknown
    /// room is 404; a skip or a seek while stopped is 409.
    @Test func theControlsNeedTheTokenAndARoom() async throws {
        let f = try await RoomsFixture()
        try f.play()
        let refused = try await f.post("rooms/default/pause", token: false)
        #expect(refused.status == 403 && f.room.status.queue.state == .playing, "\(refused)")
        let anonymous = try await RawHTTP.send(f.port, "POST", "/api/rooms/default/pause", headers: ["X-CSRF-Token": f.csrf])
        #expect(anonymous.status == 401 && f.room.status.queue.state == .playing, "\(anonymous)")
        let unknown = try await f.post("rooms/kitchen/pause")
        #expect(unknown.status == 404 && unknown.body.contains("No room kitchen"), "\(unknown)")
        try f.room.perform([.queue(.stop)])
        #expect(try await f.post("rooms/default/next").status == 409)
        #expect(try await f.post("rooms/default/seek", #"{"position": 3}"#).status == 409)
        await f.stop()
    }
}
