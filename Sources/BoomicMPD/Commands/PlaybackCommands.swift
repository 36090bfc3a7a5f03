import BoomicCore
import BoomicPlayback

/// Play, pause, skip, seek, volume and the queue's options.
enum PlaybackCommands {
    static let all: [CommandSpec] = [
        CommandSpec("play", 0...1) { inv throws(MPDError) in try play(&inv, byID: false) },
        CommandSpec("playid", 0...1) { inv throws(MPDError) in try play(&inv, byID: true) },
        CommandSpec("pause", 0...1) { inv throws(MPDError) in
            // No argument toggles (ncmpcpp's and ncmpc's play/pause key); `pause 0` resumes.
            let state = try inv.player.status.queue.state
            let pause = inv.args.isEmpty ? state == .playing : try inv.bool(0)
            if pause, state == .playing { try inv.player.perform(.pause) }
            if !pause, state == .paused { try inv.player.perform(.play(nil)) }
        },
        CommandSpec("stop") { inv throws(MPDError) in try inv.player.perform(.stop) },
        // While paused, MPD plays the song it moves to (a skip button on a phone means "play
        // that one"); Boomic's queue keeps a pause, so the server resumes after the move.
        CommandSpec("next") { inv throws(MPDError) in
            guard try inv.player.status.queue.state != .stopped else { throw inv.error(.playerSync, "Not playing") }
            try skip(.next, inv)
        },
        CommandSpec("previous") { inv throws(MPDError) in
            guard try inv.player.status.queue.state != .stopped else { throw inv.error(.playerSync, "Not playing") }
            // Always the entry before, however far into this one, as MPD goes (Boomic's own
            // player restarts a song more than 3 s in).
            try skip(.previous(elapsed: 0), inv)
        },
        CommandSpec("seek", 2...2) { inv throws(MPDError) in
            let t = try time(inv, 1)
            let q = try inv.player.status.queue
            let e = try inv.entry(atPosition: 0, in: q)
            try seek(&inv, entry: e.id, to: t, queue: q)
        },
        CommandSpec("seekid", 2...2) { inv throws(MPDError) in
            let t = try time(inv, 1)
            let q = try inv.player.status.queue
            let e = try inv.entry(withID: 0, in: q)
            try seek(&inv, entry: e.id, to: t, queue: q)
        },
        CommandSpec("seekcur", 1...1) { inv throws(MPDError) in
            let text = inv.args[0]
            let t = try inv.number(0)
            let status = try inv.player.status
            guard status.queue.state != .stopped else { throw inv.error(.playerSync, "Not playing") }
            if text.hasPrefix("+") || text.hasPrefix("-") {
                try inv.player.perform([.seekBy(t)])
            } else {
                try inv.player.perform([.seek(to: t)])
            }
        },
        CommandSpec("setvol", 1...1) { inv throws(MPDError) in
            let v = try inv.int(0)
            // MPD reads it unsigned: -1 is "too large" too.
            guard (0...100).contains(v) else { throw inv.error(.argument, "Number too large: \(inv.args[0])") }
            try setVolume(&inv, v)
        },
        CommandSpec("volume", 1...1) { inv throws(MPDError) in
            let delta = try inv.int(0)
            guard (-100...100).contains(delta) else { throw inv.error(.argument, "Number too large: \(inv.args[0])") }
            try setVolume(&inv, max(0, min(100, try inv.player.status.sound.volume + delta)))
        },
        CommandSpec("getvol") { inv throws(MPDError) in inv.response.add("volume", try inv.player.status.sound.volume) },
        CommandSpec("random", 1...1) { inv throws(MPDError) in try inv.player.perform(.setRandom(try inv.bool(0))) },
        CommandSpec("repeat", 1...1) { inv throws(MPDError) in
            let on = try inv.bool(0)
            let q = try inv.player.status.queue
            // MPD's single + repeat is Boomic's repeat one.
            try inv.player.perform(.setRepeat(on ? (q.single == .on ? .one : .all) : .off))
        },
        CommandSpec("single", 1...1) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            switch inv.args[0] {
            case "oneshot": try inv.player.perform(.setSingle(.oneshot))
            case "0", "1":
                let on = inv.args[0] == "1"
                try inv.player.perform([.queue(.setSingle(on ? .on : .off)),
                                    .queue(.setRepeat(q.repeatMode == .off ? .off : on ? .one : .all))])
            default: throw inv.error(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
            }
        },
        CommandSpec("consume", 1...1) { inv throws(MPDError) in
            switch inv.args[0] {
            // `oneshot` is MPD 0.24's; 0.23, which the server announces, refuses it.
            case "0", "1": try inv.player.perform(.setConsume(inv.args[0] == "1"))
            default: throw inv.error(.argument, "Boolean (0/1) expected: \(inv.args[0])")
            }
        },
    ]

    /// `play [POS]` / `playid [ID]`: that entry, or (none, or -1) the current one.
    private static func play(_ inv: inout Invocation, byID: Bool) throws(MPDError) {
        guard let first = inv.args.first, first != "-1" else {
            try inv.player.perform(.play(nil))
            return
        }
        let q = try inv.player.status.queue
        // MPD reads a position as a signed number: one below -1 is no song of the queue.
        if !byID, try inv.int(0) < 0 { throw inv.error(.argument, "Bad song index") }
        let entry = byID ? try inv.entry(withID: 0, in: q) : try inv.entry(atPosition: 0, in: q)
        try inv.player.perform(.play(entry.id))
    }

    /// A time to seek to, as MPD reads it: a negative one is refused before the song is looked
    /// up.
    private static func time(_ inv: Invocation, _ i: Int) throws(MPDError) -> Double {
        let t = try inv.number(i)
        guard t >= 0 else { throw inv.error(.argument, "Negative value not allowed: \(inv.args[i])") }
        return t
    }

    private static func seek(_ inv: inout Invocation, entry: PlayQueue.EntryID, to seconds: Double, queue: PlayQueue) throws(MPDError) {
        if queue.current != entry || queue.state == .stopped {
            // Another entry: it plays from there, or, while paused, waits there paused (MPD).
            let paused: [PlaybackCommand] = queue.state == .paused ? [.queue(.pause)] : []
            try inv.player.perform([.queue(.play(entry)), .seek(to: seconds)] + paused)
        } else {
            try inv.player.perform([.seek(to: seconds)])
        }
    }

    private static func setVolume(_ inv: inout Invocation, _ v: Int) throws(MPDError) {
        var sound = try inv.player.status.sound
        // MPD tells `mixer` for every volume command, one that changes nothing too.
        if sound.volume == v { return inv.server.hub.post([.mixer], room: try inv.player.room) }
        sound.volume = v
        try inv.player.perform([.sound(sound)])
    }

    /// A skip: still paused on the song moved to means play it (a skip past the end with
    /// `repeat` off has stopped, and stays stopped, as in MPD); told as one change.
    private static func skip(_ command: QueueCommand, _ inv: Invocation) throws(MPDError) {
        try inv.player.perform([.queue(command)]) { after in after.queue.state == .paused ? [.queue(.play(nil))] : [] }
    }
}
