import BoomicCore
import BoomicLibrary
import BoomicStation

/// `getNowPlaying`: what the rooms play (each room an entry under its own name, as Music Hub
/// shows them) and what the API's callers said they play (`scrobble` with `submission=false`).
enum NowPlayingEndpoints {
    static func list(_ call: SubsonicCall) async throws -> SubsonicReply {
        _ = try call.requireUser()
        let context = call.front.annotations
        let basis = context.session.basis
        let catalog = await call.catalog()
        let now = context.now()
        var entries: [SubsonicElement] = []
        if let station = call.station {
            // A sleeping room plays nothing; asking its player would wake it.
            for (i, room) in station.names.enumerated() where !station.isAsleep(room) {
                guard let status = station.player(room)?.status, status.queue.state == .playing,
                      let current = status.entry, let entry = status.queue.entries.first(where: { $0.id == current }),
                      let song = basis[entry.song] else { continue }
                entries.append(element(song, catalog: catalog, user: room, minutes: Int(status.position / 60), player: i + 1, name: room))
            }
        }
        let rooms = call.station?.names.count ?? 0
        for (i, playing) in context.listening.nowPlaying(at: now).enumerated() {
            guard let song = basis[playing.song] else { continue }
            entries.append(element(song, catalog: catalog, user: playing.caller.user, minutes: Int(max(0, now - playing.since) / 60),
                                   player: rooms + i + 1, name: playing.caller.client))
        }
        var list = SubsonicElement()
        list.set("entry", list: entries)
        return .answer("nowPlaying", list)
    }

    private static func element(_ song: Song, catalog: Catalog, user: String, minutes: Int, player: Int, name: String) -> SubsonicElement {
        var e = SubsonicSong.child(song, catalog: catalog)
        e["username"] = .string(user)
        e["minutesAgo"] = .int(minutes)
        e["playerId"] = .int(player)
        e["playerName"] = .string(name)
        return e
    }
}
