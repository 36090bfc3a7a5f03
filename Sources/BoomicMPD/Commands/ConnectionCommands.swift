import BoomicAudio
import BoomicCore
import BoomicStation

/// The connection's own commands: greeting-level things every client sends first.
enum ConnectionCommands {
    static let all: [CommandSpec] = [
        CommandSpec("ping", open: true) { _ in },
        CommandSpec("close", open: true) { $0.closes = true },
        // As MPD: the daemon stops (here as on SIGTERM, saving its queues), and the client's
        // connection closes without an answer.
        CommandSpec("kill", 0...Int.max) { inv throws(MPDError) in
            inv.closes = true
            inv.server.stop()
        },
        CommandSpec("password", 1...1, open: true) { inv throws(MPDError) in
            guard let password = inv.server.password, inv.args[0] == password else {
                throw inv.error(.password, "incorrect password")
            }
            inv.client.authenticated = true
        },
        CommandSpec("commands", open: true) { inv throws(MPDError) in
            for name in CommandTable.names where CommandTable.allowed(name, for: inv.client, server: inv.server) {
                inv.response.add("command", name)
            }
        },
        CommandSpec("notcommands", open: true) { inv throws(MPDError) in
            for name in CommandTable.names where !CommandTable.allowed(name, for: inv.client, server: inv.server) {
                inv.response.add("command", name)
            }
        },
        CommandSpec("tagtypes", 0...Int.max) { inv throws(MPDError) in
            guard let sub = inv.args.first else {
                for tag in MPDTag.allCases {
                    // Name comes before Genre in MPD's order.
                    if tag == .genre, inv.client.listsName { inv.response.add("tagtype", "Name") }
                    if inv.client.tags.contains(tag) { inv.response.add("tagtype", tag.rawValue) }
                }
                return
            }
            let names = inv.args.dropFirst()
            // In MPD's order of checks: `all` and `clear` take nothing, `enable` and `disable`
            // at least one tag.
            switch sub {
            case "all", "clear":
                guard names.isEmpty else { throw inv.error(.argument, "Too many arguments") }
                inv.client.tags = sub == "all" ? .standard : .none
                inv.client.listsName = sub == "all"
                return
            case "enable", "disable":
                guard !names.isEmpty else { throw inv.error(.argument, "Not enough arguments") }
            default: throw inv.error(.argument, "Unknown sub command")
            }
            var tags: [MPDTag] = []
            var name: Bool?
            for text in names {
                if let tag = MPDTag(name: text) {
                    tags.append(tag)
                } else if MPDTag.unkeptName(text) == "Name" {
                    name = sub == "enable"
                } else if !MPDTag.isUnkeptMPDName(text) {
                    throw inv.error(.argument, "Unknown tag type")
                }
            }
            if sub == "enable" { inv.client.tags.formUnion(tags) } else { inv.client.tags.subtract(tags) }
            if let name { inv.client.listsName = name }
        },
        // Boomic plays files from its library only.
        CommandSpec("urlhandlers") { _ in },
        CommandSpec("decoders") { inv throws(MPDError) in
            for plugin in Decoders.plugins {
                inv.response.add("plugin", plugin.name)
                for s in plugin.suffixes { inv.response.add("suffix", s) }
                for t in plugin.mimeTypes { inv.response.add("mime_type", t) }
            }
        },
        CommandSpec("binarylimit", 1...1) { inv throws(MPDError) in
            let n = try inv.unsigned(0)
            guard n >= 64 else { throw inv.error(.argument, "Value too small") }
            inv.client.binaryLimit = n
        },
        CommandSpec("clearerror") { inv throws(MPDError) in
            if let serial = try inv.player.status.failure?.serial { try inv.player.clearedFailure.store(serial, ordering: .releasing) }
        },
        CommandSpec("config") { inv throws(MPDError) in
            guard inv.client.isLocal else { throw inv.error(.permission, "Command only permitted to local clients") }
            // With several folders there is no one directory under which a client path is the
            // rest of a file's path (each folder is a top-level directory of its own name): a
            // client given the first (mpc) cut it off a song in it and sent what is no client
            // path. Without one, it sends the absolute path, which a local client may use.
            if let folder = inv.server.library.onlyFolder { inv.response.add("music_directory", folder) }
            inv.response.add("pcre", 1)
        },
        CommandSpec("listmounts") { inv throws(MPDError) in
            inv.response.add("mount", "")
            // A local path only to local clients, as MPD has it (and as `config`).
            if inv.client.isLocal, let folder = inv.server.library.onlyFolder { inv.response.add("storage", folder) }
        },
        CommandSpec("listneighbors") { _ in },
        CommandSpec("listpartitions") { inv throws(MPDError) in
            for name in inv.server.rooms.names { inv.response.add("partition", name) }
        },
        CommandSpec("partition", 1...1) { inv throws(MPDError) in
            guard inv.server.rooms.exists(inv.args[0]) else { throw inv.error(.noExist, "partition does not exist") }
            guard inv.client.room != inv.args[0] else { return }
            let left = inv.client.room, rooms = inv.server.rooms
            inv.client.room = inv.args[0]
            // The room left may go back to sleep (its player stops: blocking work).
            if left != "default" { inv.server.runBlocking { rooms.sleepIfIdle(left) } }
            // What is the room's own has changed for this client: its next `idle` says so at
            // once, and it reloads the room's queue and state. As in MPD 0.23, that is all it
            // says: what else was pending is dropped.
            inv.client.idle.replacePending(with: [.playlist, .player, .mixer, .output, .options])
        },
        // Changes to the rooms are blocking work, made one at a time on the server's queue for
        // it: `delpartition` and `moveoutput` stop a room's player (`moveoutput` starts two
        // again), and a `newpartition` made meanwhile on the loop met a room half deleted.
        CommandSpec("newpartition", 1...1) { inv throws(MPDError) in
            let rooms = inv.server.rooms, name = inv.args[0]
            inv.blocking = { () throws(MPDError) in try MPDError.mapping { () throws(StationError) in try rooms.create(name) } }
        },
        CommandSpec("delpartition", 1...1) { inv throws(MPDError) in
            let rooms = inv.server.rooms, name = inv.args[0]
            inv.blocking = { () throws(MPDError) in try MPDError.mapping { () throws(StationError) in try rooms.delete(name) } }
        },
        CommandSpec("moveoutput", 1...1) { inv throws(MPDError) in
            let rooms = inv.server.rooms, name = inv.args[0], room = inv.client.room
            inv.blocking = { () throws(MPDError) in try MPDError.mapping { () throws(StationError) in try rooms.move(output: name, to: room) } }
        },
        CommandSpec("outputs") { inv throws(MPDError) in
            // This room's outputs; the others' are listed as MPD lists an output moved to
            // another partition: a `dummy`, disabled here.
            let mine = Set(inv.server.rooms.outputs(of: inv.client.room).map(\.id))
            for output in inv.server.rooms.outputs {
                inv.response.add("outputid", output.id)
                inv.response.add("outputname", output.name)
                inv.response.add("plugin", mine.contains(output.id) ? Self.plugin(output.spec) : "dummy")
                inv.response.add("outputenabled", mine.contains(output.id) && inv.server.rooms.isEnabled(output: output.id) ? 1 : 0)
            }
        },
        CommandSpec("enableoutput", 1...1) { inv throws(MPDError) in
            Self.switchOutput(&inv, try Self.output(&inv), on: true)
        },
        CommandSpec("disableoutput", 1...1) { inv throws(MPDError) in
            Self.switchOutput(&inv, try Self.output(&inv), on: false)
        },
        // Runtime attributes (MPD's ALSA `dop`, `allowed_formats`): Boomic's outputs have none.
        CommandSpec("outputset", 3...3) { inv throws(MPDError) in
            _ = try Self.output(&inv)
            throw inv.error(.argument, "Unsupported attribute")
        },
        CommandSpec("toggleoutput", 1...1) { inv throws(MPDError) in
            let id = try Self.output(&inv)
            Self.switchOutput(&inv, id, on: nil)
        },
        // Answered, and told as MPD tells a change of them (`options`), though the engine does
        // not mix songs (serve.md).
        CommandSpec("crossfade", 1...1) { inv throws(MPDError) in
            _ = try inv.unsigned(0)
            inv.server.hub.post([.options], room: try inv.player.room)
        },
        CommandSpec("mixrampdb", 1...1) { inv throws(MPDError) in
            _ = try inv.number(0)
            inv.server.hub.post([.options], room: try inv.player.room)
        },
        // `nan` is how MPD's documentation says to turn MixRamp off.
        CommandSpec("mixrampdelay", 1...1) { inv throws(MPDError) in
            if inv.args[0].lowercased() != "nan" { _ = try inv.number(0) }
            inv.server.hub.post([.options], room: try inv.player.room)
        },
        CommandSpec("channels") { inv throws(MPDError) in
            for name in inv.server.channels.withLock({ $0.filter { !$0.value.isEmpty }.keys.sorted() }) {
                inv.response.add("channel", name)
            }
        },
        CommandSpec("subscribe", 1...1) { inv throws(MPDError) in
            let name = inv.args[0]
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }) else {
                throw inv.error(.argument, "invalid channel name")
            }
            guard inv.client.subscriptions[name] == nil else { throw inv.error(.exist, "already subscribed to this channel") }
            let box = MessageBox(slot: inv.client.idle)
            inv.client.subscriptions[name] = box
            let id = inv.client.id
            inv.server.channels.withLock { $0[name, default: [:]][id] = box }
            inv.server.hub.post([.subscription])
        },
        CommandSpec("unsubscribe", 1...1) { inv throws(MPDError) in
            let name = inv.args[0]
            guard inv.client.subscriptions.removeValue(forKey: name) != nil else {
                throw inv.error(.noExist, "not subscribed to this channel")
            }
            let id = inv.client.id
            inv.server.channels.withLock { _ = $0[name]?.removeValue(forKey: id) }
            inv.server.hub.post([.subscription])
        },
        CommandSpec("sendmessage", 2...2) { inv throws(MPDError) in
            let boxes = inv.server.channels.withLock { $0[inv.args[0]].map { Array($0.values) } ?? [] }
            guard !boxes.isEmpty else { throw inv.error(.noExist, "nobody is subscribed to this channel") }
            for box in boxes {
                box.messages.withLock { $0.append(inv.args[1]) }
                box.slot.post([.message])
            }
        },
        CommandSpec("readmessages") { inv throws(MPDError) in
            for (name, box) in inv.client.subscriptions.sorted(by: { $0.key < $1.key }) {
                for m in box.messages.withLock({ m in defer { m.removeAll() }; return m }) {
                    inv.response.add("channel", name)
                    inv.response.add("message", m)
                }
            }
        },
    ]

    /// Switches an output on or off, as blocking work: the switch is saved in the rooms' layout
    /// file, with the other changes to the rooms. One switched off while stuck in a write would
    /// keep its room waiting with it: the work sees that it lets go (`Station.letGo`). `on` nil
    /// toggles it, as it is when the work runs (`toggleoutput`, which MPD tells otherwise).
    private static func switchOutput(_ inv: inout Invocation, _ id: Int, on: Bool?) {
        let rooms = inv.server.rooms
        inv.blocking = {
            let toggled = on == nil
            let on = on ?? !rooms.isEnabled(output: id)
            rooms.setEnabled(output: id, on, toggled: toggled)
            if !on, rooms.isInCall(output: id) { rooms.letGo(output: id) }
        }
    }

    /// The output id argument, checked. Switching an output acts in the room that has it
    /// (moving one is `moveoutput`).
    private static func output(_ inv: inout Invocation) throws(MPDError) -> Int {
        let id = try inv.unsigned(0)
        guard id < inv.server.rooms.outputs.count else { throw inv.error(.noExist, "No such audio output") }
        return id
    }

    private static func plugin(_ spec: SinkSpec) -> String {
        switch spec {
        case .alsa: "alsa"
        case .null: "null"
        case .wav: "wav"
        }
    }
}
