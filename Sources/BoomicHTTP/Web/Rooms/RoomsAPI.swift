import BoomicCore
import BoomicPlayback
import BoomicStation
import Hummingbird

/// The rooms page's calls: every room's state, its live event stream (`RoomEvents`), its
/// controls and its songs' covers.
///
/// A control carries out on the room's player exactly what the MPD front's command of the same
/// name does (`RoomPlayer.perform`, the one way into a player for every front), so MPD clients
/// see it in `status` and `idle`, and the page sees MPD clients' commands through the same feed.
/// Each answers the room as it is after it; an unknown room is 404, a control that does not fit
/// the room's state (skip or seek while stopped) 409.
enum RoomsAPI {
    static let routes: [WebRoute] = [
        WebRoute(.get, "rooms", rooms),
        WebRoute(.get, "rooms/cover/{id}", cover),
        WebRoute(.post, "rooms/{room}/play", play),
        WebRoute(.post, "rooms/{room}/pause", pause),
        WebRoute(.post, "rooms/{room}/next", next),
        WebRoute(.post, "rooms/{room}/previous", previous),
        WebRoute(.post, "rooms/{room}/volume", volume),
        WebRoute(.post, "rooms/{room}/seek", seek),
        WebRoute(.post, "rooms/{room}/add", add),
    ]

    /// `GET api/rooms`: every room with its queue, as the stream's first event.
    static func rooms(_ call: WebCall) async throws -> WebReply {
        guard let station = call.station else { return .json(RoomEvents.RoomsState(rooms: [])) }
        return .json(RoomEvents.RoomsState(rooms: RoomView.all(station, basis: call.basis)))
    }

    /// `POST api/rooms/NAME/play` with `{}` (resume, or start the current entry) or
    /// `{"entry": ID}` (that entry of the queue: MPD's `playid`).
    static func play(_ call: WebCall) async throws -> WebReply {
        struct Body: Decodable { var entry: Int? }
        let body = call.body.readableBytes > 0 ? try call.json(Body.self) : Body()
        return try control(call) { player in
            let status = player.status
            if let entry = body.entry {
                let id = PlayQueue.EntryID(entry)
                guard status.queue.entry(id) != nil else { throw WebError.notFound("No entry \(entry) in the queue.") }
                try player.perform([.queue(.play(id))])
            } else if status.queue.state != .playing {
                try player.perform([.queue(.play(nil))])
            }
        }
    }

    /// `POST api/rooms/NAME/pause`: pauses a room that plays (`pause 1`).
    static func pause(_ call: WebCall) async throws -> WebReply {
        try control(call) { player in
            if player.status.queue.state == .playing { try player.perform([.queue(.pause)]) }
        }
    }

    /// `POST api/rooms/NAME/next`: as MPD's `next`, a skip while paused plays the song moved to.
    static func next(_ call: WebCall) async throws -> WebReply {
        try control(call) { player in try skip(player, .next) }
    }

    /// `POST api/rooms/NAME/previous`: the entry before, however far into this one (MPD's).
    static func previous(_ call: WebCall) async throws -> WebReply {
        try control(call) { player in try skip(player, .previous(elapsed: 0)) }
    }

    /// `POST api/rooms/NAME/volume` with `{"volume": 0…100}` (`setvol`).
    static func volume(_ call: WebCall) async throws -> WebReply {
        struct Body: Decodable { var volume: Int }
        let body = try call.json(Body.self)
        guard (0...100).contains(body.volume) else { throw WebError.badRequest("The volume is from 0 to 100.") }
        return try control(call) { player in
            var sound = player.status.sound
            guard sound.volume != body.volume else { return }
            sound.volume = body.volume
            try player.perform([.sound(sound)])
        }
    }

    /// `POST api/rooms/NAME/seek` with `{"position": SECONDS}` in the current song (`seekcur`).
    static func seek(_ call: WebCall) async throws -> WebReply {
        struct Body: Decodable { var position: Double }
        let body = try call.json(Body.self)
        guard body.position >= 0, body.position.isFinite else { throw WebError.badRequest("The position is seconds from 0.") }
        return try control(call) { player in
            guard player.status.queue.state != .stopped else { throw WebError(.conflict, "The room is not playing.") }
            try player.perform([.seek(to: body.position)])
        }
    }

    /// `POST api/rooms/NAME/add` with `{"song": ID}` (a catalog id, as the library pages give
    /// it) and `"next": true` to play it next: the song at the queue's end (MPD's `add`).
    static func add(_ call: WebCall) async throws -> WebReply {
        struct Body: Decodable {
            var song: String
            var next: Bool?
        }
        let body = try call.json(Body.self)
        guard case let .song(id)? = CatalogID.parse(body.song), let song = call.basis[id], !song.missing else {
            throw WebError.notFound("No song \(body.song).")
        }
        return try control(call) { player in
            try player.perform([.queue(.add([song.id], at: body.next == true ? .next : .end))])
        }
    }

    /// `GET api/rooms/cover/ID[?size=N]`: a song's cover, as `/rest/getCoverArt` sends it.
    static func cover(_ call: WebCall) async throws -> WebReply {
        var parameters = [(name: "id", value: try call.path("id"))]
        if let size = call.query["size"] { parameters.append((name: "size", value: size)) }
        let subsonic = SubsonicCall(endpoint: "getCoverArt", parameters: SubsonicParameters(parameters), user: call.user,
                                    origin: call.origin, head: call.head, front: call.front)
        do {
            guard case let .http(response) = try await CoverEndpoints.coverArt(subsonic) else {
                throw WebError.notFound("No cover.")
            }
            return .http(response)
        } catch let error as SubsonicError {
            throw WebError.notFound(error.message)
        }
    }

    /// A skip as MPD makes it: refused while stopped; still paused on the song moved to means
    /// play it; told as one change.
    private static func skip(_ player: RoomPlayer, _ command: QueueCommand) throws {
        guard player.status.queue.state != .stopped else { throw WebError(.conflict, "The room is not playing.") }
        try player.perform([.queue(command)]) { after in after.queue.state == .paused ? [.queue(.play(nil))] : [] }
    }

    /// Runs `body` on the room's player (woken if it slept) and answers the room after it.
    private static func control(_ call: WebCall, _ body: (RoomPlayer) throws -> Void) throws -> WebReply {
        let name = try call.path("room")
        guard let station = call.station, let player = station.player(name) else { throw WebError.notFound("No room \(name).") }
        do {
            try body(player)
        } catch let error as StationError {
            throw WebError(.conflict, reason(error))
        }
        return .json(RoomView.of(name, status: player.status, basis: call.front.basis, queue: true))
    }

    static func reason(_ error: StationError) -> String {
        switch error {
        case .restarting: "The room's player is being replaced: try again."
        default: "The room cannot do that now (\(error))."
        }
    }
}
