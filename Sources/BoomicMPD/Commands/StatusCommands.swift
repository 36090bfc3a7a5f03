import BoomicCore
import BoomicPlayback
import BoomicStation
import Foundation
import NIOCore

/// `status`, `currentsong`, `stats` and ReplayGain: what clients poll.
enum StatusCommands {
    static let all: [CommandSpec] = [
        CommandSpec("status") { inv throws(MPDError) in
            let player = try inv.player
            let key = StatusKey(inv.server, player)
            if let kept = inv.client.keptStatus, kept.key == key {
                inv.response = kept.response
                return
            }
            status(&inv, player.status, cleared: player.clearedFailure.load(ordering: .acquiring))
            inv.client.keptStatus = KeptStatus(key: key, player: player, response: inv.response)
        },
        CommandSpec("currentsong") { inv throws(MPDError) in
            let status = try inv.player.status
            let snapshot = inv.snapshot
            guard let id = status.entry ?? status.queue.current, let p = status.queue.position(of: id) else { return }
            inv.add(entry: status.queue.entries[p], position: p, snapshot: snapshot)
        },
        CommandSpec("stats") { inv throws(MPDError) in
            let stats = inv.snapshot.indexes.libraryStats()
            inv.response.add("artists", stats.artists)
            inv.response.add("albums", stats.albums)
            inv.response.add("songs", stats.songs)
            inv.response.add("uptime", Int(Date().timeIntervalSince(inv.server.started)))
            inv.response.add("db_playtime", Int(stats.playtime))
            inv.response.add("db_update", Int(stats.newest))
            inv.response.add("playtime", inv.server.rooms.playedSeconds)
        },
        CommandSpec("replay_gain_mode", 1...1) { inv throws(MPDError) in
            guard let mode = ReplayGainMode(rawValue: inv.args[0]) else {
                throw inv.error(.argument, "Unrecognized replay gain mode")
            }
            var sound = try inv.player.status.sound
            sound.replayGain = mode
            try inv.player.perform([.sound(sound)])
        },
        CommandSpec("replay_gain_status") { inv throws(MPDError) in
            inv.response.add("replay_gain_mode", try inv.player.status.sound.replayGain.rawValue)
        },
    ]

    /// The client's last `status` answer with its `OK`, when nothing it was made of changed
    /// since: what the command would answer, for the connection to send as it is, without
    /// parsing or dispatching.
    static func keptAnswer(for client: ClientState, server: ServerContext) -> ByteBuffer? {
        guard let kept = client.keptStatus, kept.key == StatusKey(server, kept.player) else { return nil }
        return kept.answer
    }

    /// MPD's `status`, field for field and in its order. Reads the library only for the song
    /// being played.
    static func status(_ inv: inout Invocation, _ s: PlaybackStatus, cleared: Int) {
        let q = s.queue
        var response = inv.response
        response.reserve(512)
        defer { inv.response = response }
        func r(_ name: String, _ value: any CustomStringConvertible) { response.add(name, value.description) }
        r("volume", s.sound.volume)
        r("repeat", q.repeatMode == .off ? 0 : 1)
        r("random", q.isRandom ? 1 : 0)
        r("single", q.single == .oneshot ? "oneshot" : q.single == .on || q.repeatMode == .one ? "1" : "0")
        r("consume", q.consume ? 1 : 0)
        r("partition", inv.client.room)
        r("playlist", q.version + 1)
        r("playlistlength", q.entries.count)
        r("mixrampdb", "0")  // as MPD 0.23 prints it (older ones printed 0.000000)
        r("state", q.state == .playing ? "play" : q.state == .paused ? "pause" : "stop")
        if let id = s.entry ?? q.current, let p = q.position(of: id) {
            r("song", p)
            r("songid", id.rawValue)
            if q.state != .stopped {
                let snapshot = inv.snapshot
                // Until the player has opened the song: the library's length, of the entry's
                // range when it plays one.
                let known = snapshot.basis[q.entries[p].song]?.duration
                let duration = s.duration ?? (q.entries[p].range.map { $0.length(of: known) } ?? known)
                r("time", "\(Int(s.position.rounded())):\(Int((duration ?? 0).rounded()))")
                r("elapsed", MPDResponse.milliseconds(s.position))
                if let song = snapshot.basis[q.entries[p].song], let kbps = song.bitrate { r("bitrate", kbps) }
                if let duration { r("duration", MPDResponse.milliseconds(duration)) }
                // The decoder's format, as MPD's `audio:` is: not what volume or resampling
                // made of it on the way to the output.
                if let f = s.sourceFormat ?? s.outputFormat {
                    r("audio", "\(f.sampleRate):\(f.isFloat ? "f" : String(f.bitsPerSample)):\(f.channels)")
                }
            }
        }
        let job = inv.server.updating.load(ordering: .acquiring)
        if job != 0 { r("updating_db", job) }
        if let failure = s.failure, failure.serial > cleared {
            let snapshot = inv.snapshot
            let uri = snapshot.basis[failure.song].flatMap { snapshot.tree.uri(for: $0.uriPath) } ?? failure.song.description
            r("error", "Failed to decode \(uri)")
        }
        if let next = q.nextInOrder, let p = q.position(of: next) {
            r("nextsong", p)
            r("nextsongid", next.rawValue)
        }
    }
}

/// What a `status` answer is made of: the rooms' layout, the player's status, the library (a
/// song's length and bit rate) and the update running. Each part only goes up. The client's
/// room is not in it: a client that changes rooms lets its kept answer go (`ClientState.room`).
struct StatusKey: Equatable {
    var rooms: Int
    var player: Int
    var library: Int
    var updating: Int
    var cleared: Int

    /// Read before the answer is made. `player` is the client's room's: while the rooms'
    /// layout stays, it is the one a kept answer was made from. Inlined, so that the poll's
    /// check reads the counters through its borrowed references instead of retaining them.
    @inline(__always)
    init(_ server: ServerContext, _ player: ServerPlayer) {
        rooms = server.rooms.generation
        self.player = player.engine.statusVersion
        library = server.library.head
        updating = server.updating.load(ordering: .acquiring)
        cleared = player.clearedFailure.load(ordering: .acquiring)
    }
}

/// One client's last `status` answer, and what it was made of. A class: the poll's check
/// reads it in place, a pointer and a few integers, where an optional tuple of the answer is
/// copied whole through the runtime's generic witnesses (a third of the check's cost).
final class KeptStatus {
    let key: StatusKey
    /// The player it was made from: the client's room's while `key.rooms` holds.
    let player: ServerPlayer
    let response: MPDResponse
    /// The answer as sent, its `OK` included: what the connection hands its socket as it is
    /// when the same poll comes alone in a read.
    let answer: ByteBuffer

    init(key: StatusKey, player: ServerPlayer, response: MPDResponse) {
        self.key = key
        self.player = player
        self.response = response
        var answer = response.bytes
        answer.writeStaticString("OK\n")
        self.answer = answer
    }
}
