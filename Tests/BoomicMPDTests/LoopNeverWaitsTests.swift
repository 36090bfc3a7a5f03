import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import NIOEmbedded
import Testing

/// An event loop never waits: a command to a player whose thread is held is carried out on the
/// queue and answered at once; one that reads a file is handed off the loop, and the loop's other
/// clients are answered meanwhile; its own client gets its answer, and those of the requests
/// after it, in order once it is done.
@Suite(.serialized) struct LoopNeverWaitsTests {
    static func read(_ channel: EmbeddedChannel) throws -> String {
        var out = ""
        while let chunk = try channel.readOutbound(as: ByteBuffer.self) { out += String(buffer: chunk) }
        return out
    }

    /// Four clients on one loop each send `stop` while the player's thread is held in a
    /// decoder's open: each is carried out on the queue and answered at once (the player takes
    /// it up when its thread is free); `status` from a fifth is answered meanwhile.
    @Test func aCallThePlayerHasNotTakenLeavesTheLoopAtOnce() throws {
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let songs = ServerConversation.titledSongs(1, artists: 1, albums: 1, seed: 12, in: dir)
            _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            let library = ServerLibrary(session: session, folders: [dir])
            let hub = IdleHub(), gate = HeldOpenCallTests.Gate()
            let rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: dir), outputs: [.null],
                              sound: SoundSettings(), hub: hub, record: false, opening: gate.hold, warn: { _ in })
            defer {
                gate.release()
                rooms.quitAll()
            }
            let work = BlockingCommandTests.HeldWork()
            let server = ServerContext(library: library, rooms: rooms, hub: hub, password: nil, version: "test",
                                       runBlocking: work.take, runWaiting: work.take)
            var channels: [EmbeddedChannel] = []
            defer { for channel in channels { _ = try? channel.finish() } }
            func connect(_ id: Int) throws -> EmbeddedChannel {
                let channel = EmbeddedChannel()
                let client = ClientState(id: id, address: "test", isLocal: false, idle: hub.makeSlot(), needsPassword: false)
                try channel.pipeline.syncOperations.addHandler(ChannelConnection(server: server, client: client))
                try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 6600)).wait()
                _ = try Self.read(channel)
                channels.append(channel)
                return channel
            }
            /// Runs what was handed off the loop until nothing more is.
            func settle() {
                while work.count > 0 {
                    work.runAll(channels[0])
                    for channel in channels { channel.embeddedEventLoop.run() }
                }
            }
            let first = try connect(1)
            try first.writeInbound(ByteBuffer(string: "add \"\(songs[0].path.dropFirst(dir.count + 1))\"\n"))
            settle()
            #expect(try Self.read(first) == "OK\n")
            try first.writeInbound(ByteBuffer(string: "play\n"))
            #expect(gate.awaitHeld(), "the player's thread reached the open")
            #expect(try Self.read(first) == "OK\n", "play is answered while the player's thread is held")

            let stoppers = try (2...5).map(connect)
            let start = ContinuousClock.now
            for channel in stoppers { try channel.writeInbound(ByteBuffer(string: "stop\nping\n")) }
            let spent = ContinuousClock.now - start
            #expect(spent < .milliseconds(500), "the loop carried out four calls in \(spent)")
            for channel in stoppers { #expect(try Self.read(channel) == "OK\nOK\n", "stop's OK, then ping's, with the thread held") }
            #expect(try #require(rooms.player("default")).status.queue.state == .stopped)
            let poller = try connect(6)
            try poller.writeInbound(ByteBuffer(string: "status\n"))
            #expect(try Self.read(poller).hasSuffix("OK\n"), "another client is answered meanwhile")

            gate.release()
            settle()
            #expect(try #require(rooms.player("default")).status.queue.state == .stopped)
        }
    }

    /// A command that reads a file (a song's tags, a cover's bytes) is answered from work off
    /// the loop, and the requests after it wait for it. (They were read on the loop, where a
    /// file on a sleeping disk held every client of it.)
    @Test(arguments: [
        ("readcomments \"PATH\"", "ACK [52@0] {readcomments} Failed to load file\n"),
        ("albumart \"PATH\" 0", "ACK [50@0] {albumart} No file exists\n"),
        ("command_list_ok_begin\nping\nreadpicture \"PATH\" 0\nping\ncommand_list_end", "list_OK\nlist_OK\nlist_OK\nOK\n"),
    ])
    func aFileIsReadOffTheLoop(_ request: String, _ answer: String) throws {
        let work = BlockingCommandTests.HeldWork()
        var library = ""
        var songs: [Song] = []
        var before = "", after = ""
        _ = try ServerConversation.run("", runWaiting: work.take, during: { channel, _ in
            _ = try Self.read(channel)
            let path = String(songs[0].path.dropFirst(library.count + 1))
            try channel.writeInbound(ByteBuffer(string: request.replacingOccurrences(of: "PATH", with: path) + "\nping\n"))
            before = try Self.read(channel)
            #expect(work.count == 1, "the read handed off the loop")
            work.runAll(channel)
            after = try Self.read(channel)
        }, songs: { dir in
            library = dir
            songs = ServerConversation.titledSongs(1, artists: 1, albums: 1, seed: 4, in: dir)
            return songs
        })
        let list = request.hasPrefix("command_list")
        #expect(before == (list ? "list_OK\n" : ""), "nothing answered before the read: \(before)")
        #expect(after == (list ? String(answer.dropFirst("list_OK\n".count)) : answer) + "OK\n", "\(after)")
    }

    /// Switching an output saves the rooms' layout file: the switch is work off the loop (with
    /// the other changes to the rooms), and the requests after it wait for it. (It was saved on
    /// the loop.)
    @Test(arguments: ["enableoutput 0", "disableoutput 0", "toggleoutput 0"])
    func anOutputsSwitchIsSavedOffTheLoop(_ request: String) throws {
        let work = BlockingCommandTests.HeldWork()
        var before = "", after = "", enabled = true
        _ = try ServerConversation.run("", runBlocking: work.take, during: { channel, server in
            _ = try Self.read(channel)
            try channel.send(request + "\nping\n")
            before = try Self.read(channel)
            #expect(work.count == 1, "the switch handed off the loop")
            work.runAll(channel)
            after = try Self.read(channel)
            enabled = server.rooms.isEnabled(output: 0)
        }, songs: { _ in [] })
        #expect(before == "", "nothing answered before the switch: \(before)")
        #expect(after == "OK\nOK\n", "\(after)")
        #expect(enabled == request.hasPrefix("enable"), "\(request)")
    }

    /// A room made by `newpartition` sleeps; the first command of a client in it that needs its
    /// player wakes it off the loop (its state file read, its outputs opened), and is carried
    /// out once it is awake. (It was woken on the loop.)
    @Test func aSleepingRoomIsWokenOffTheLoop() throws {
        let work = BlockingCommandTests.HeldWork()
        var before = "", after = "", asleep = false
        _ = try ServerConversation.run("", runBlocking: work.take, during: { channel, server in
            _ = try Self.read(channel)
            try channel.send("newpartition K\n")
            work.runAll(channel)
            #expect(try Self.read(channel) == "OK\n")
            asleep = server.rooms.isAsleep("K")
            try channel.send("partition K\nstatus\nping\n")
            before = try Self.read(channel)
            #expect(work.count == 1, "the wake handed off the loop")
            work.runAll(channel)
            after = try Self.read(channel)
        }, songs: { _ in [] })
        #expect(asleep, "a new room sleeps")
        #expect(before == "OK\n", "partition's OK; status waits for the wake: \(before)")
        #expect(after.contains("partition: K\n") && after.hasSuffix("OK\nOK\n"), "status, then ping: \(after)")
    }
}
