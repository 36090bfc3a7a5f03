import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

/// A command whose work blocks (`moveoutput`, `delpartition`: a room's player stops and starts
/// again) runs off the event loop, so that the loop's other clients are not kept waiting by it;
/// its own client sees nothing of that: the answer, the rest of a command list and the requests
/// sent after it come in the order sent, once the work is done.
@Suite struct BlockingCommandTests {
    /// Takes the blocking work handed to it, to run when the test says.
    final class HeldWork: Sendable {
        private let held = Mutex<[@Sendable () -> Void]>([])
        /// How many works are still run at once when handed over (the `newpartition` a test
        /// starts with, itself blocking work; its answer is let back when the loop runs).
        private let passing: Mutex<Int>
        init(passing: Int = 0) { self.passing = Mutex(passing) }
        var take: @Sendable (@escaping @Sendable () -> Void) -> Void {
            { [self] work in
                let now = passing.withLock { n in
                    defer { n = max(0, n - 1) }
                    return n > 0
                }
                if now { work() } else { held.withLock { $0.append(work) } }
            }
        }
        var count: Int { held.withLock { $0.count } }
        /// Runs what was handed over, then what it sent to the loop.
        func runAll(_ channel: EmbeddedChannel) {
            for work in held.withLock({ list in defer { list.removeAll() }; return list }) { work() }
            channel.embeddedEventLoop.run()
        }
    }

    static func songs(_ dir: String) -> [Song] {
        ServerConversation.titledSongs(3, artists: 1, albums: 1, seed: 5, in: dir)
    }

    static func read(_ channel: EmbeddedChannel) throws -> String {
        var out = ""
        while let chunk = try channel.readOutbound(as: ByteBuffer.self) { out += String(buffer: chunk) }
        return out
    }

    /// Everything answered to `input`, its blocking work run at once and its answers let back
    /// onto the loop.
    static func answers(_ input: String) throws -> String {
        var text = ""
        _ = try ServerConversation.run(input, during: { channel, _ in
            channel.embeddedEventLoop.run()
            text = try read(channel)
        }, songs: songs)
        return text
    }

    @Test func theAnswerAndTheRequestsAfterItWaitForTheWork() throws {
        let work = HeldWork(passing: 1)
        var before = "", after = ""
        _ = try ServerConversation.run("newpartition Kitchen\npartition Kitchen\nmoveoutput null\nping\nstatus\n",
                                       runBlocking: work.take, during: { channel, _ in
            channel.embeddedEventLoop.run()  // the new room made: the rest goes on
            before = try Self.read(channel)
            channel.pipeline.fireChannelRead(ByteBuffer(string: "ping\n"))  // read meanwhile: waits too
            channel.pipeline.fireChannelReadComplete()
            before += try Self.read(channel)
            #expect(work.count == 1, "the move's work handed over once")
            work.runAll(channel)
            after = try Self.read(channel)
        }, songs: Self.songs)
        #expect(before == MPDSession.greeting + "OK\nOK\n", "nothing after the move before its work is done")
        let lines = after.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["OK", "OK"], "the move's OK, then ping's: \(after)")
        #expect(lines.contains("partition: Kitchen") && lines.suffix(2) == ["OK", "OK"], "status, then the ping read meanwhile: \(after)")
    }

    /// A client that shuts down its side after its requests (`printf … | nc`) gets every answer,
    /// the blocked command's and those after it, and then the connection closes, as MPD does;
    /// it was closed at the shutdown, with the move done and nothing said.
    @Test func aClientThatEndsItsSideStillGetsItsAnswers() throws {
        let work = HeldWork(passing: 1)
        var before = "", after = "", openMeanwhile = false, openAfter = true
        _ = try ServerConversation.run("newpartition Kitchen\npartition Kitchen\nmoveoutput null\nping\n",
                                       runBlocking: work.take, during: { channel, _ in
            channel.embeddedEventLoop.run()  // the new room made: the rest goes on
            channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            before = try Self.read(channel)
            openMeanwhile = channel.isActive
            work.runAll(channel)
            after = try Self.read(channel)
            openAfter = channel.isActive
        }, songs: Self.songs)
        #expect(before == MPDSession.greeting + "OK\nOK\n" && openMeanwhile, "\(before)")
        #expect(after == "OK\nOK\n" && !openAfter, "the move's OK and ping's, then the close: \(after)")
    }

    /// With nothing left to answer (an idle waiting, a line not ended), the end of the client's
    /// side closes the connection at once.
    @Test func theEndOfTheClientsSideClosesAnIdleConnection() throws {
        for input in ["idle\n", "ping\nstat"] {
            var open = true
            _ = try ServerConversation.run(input, during: { channel, _ in
                channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
                channel.embeddedEventLoop.run()
                open = channel.isActive
            }, songs: Self.songs)
            #expect(!open, "\(input)")
        }
    }

    /// `newpartition` of a name another client is deleting waits for the deletion, as the
    /// changes to rooms are made one at a time: made at once on the loop, it met the room half
    /// gone (`another player (process …) is playing`, from the server's own lock), or could
    /// see its folder deleted under it.
    @Test func aNewRoomWaitsForTheDeletionOfItsName() throws {
        let work = HeldWork()
        var answers = "", other = "", rooms = ""
        _ = try ServerConversation.run("newpartition K\n", runBlocking: work.take, during: { channel, server in
            work.runAll(channel)
            channel.pipeline.fireChannelRead(ByteBuffer(string: "delpartition K\n"))
            channel.pipeline.fireChannelReadComplete()
            let second = EmbeddedChannel()
            let client = ClientState(id: 2, address: "test", isLocal: false, idle: server.hub.makeSlot(), needsPassword: false)
            try second.pipeline.syncOperations.addHandler(ChannelConnection(server: server, client: client))
            try second.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 6600)).wait()
            try second.writeInbound(ByteBuffer(string: "newpartition K\n"))
            #expect(work.count == 2, "the new room waits behind the deletion")
            work.runAll(channel)
            second.embeddedEventLoop.run()
            answers = try Self.read(channel)
            other = try Self.read(second)
            try second.writeInbound(ByteBuffer(string: "listpartitions\n"))
            rooms = try Self.read(second)
            _ = try? second.finish()
        }, songs: Self.songs)
        #expect(answers == MPDSession.greeting + "OK\nOK\n", "\(answers)")
        #expect(other == MPDSession.greeting + "OK\n", "\(other)")
        #expect(rooms == "partition: default\npartition: K\nOK\n", "\(rooms)")
    }

    @Test func theMoveIsDoneWhenItIsAnswered() throws {
        let text = try Self.answers("newpartition Kitchen\npartition Kitchen\nmoveoutput null\noutputs\n")
        #expect(text.hasSuffix("OK\nOK\nOK\noutputid: 0\noutputname: null\nplugin: null\noutputenabled: 1\nOK\n"), "\(text)")
    }

    @Test(arguments: [("command_list_ok_begin", "list_OK\n"), ("command_list_begin", "")])
    func aCommandListGoesOnAfterTheWork(_ begin: String, _ each: String) throws {
        let work = HeldWork(passing: 1)
        var before = "", after = ""
        _ = try ServerConversation.run("newpartition Kitchen\npartition Kitchen\n\(begin)\nping\nmoveoutput null\nping\ncommand_list_end\nping\n",
                                       runBlocking: work.take, during: { channel, _ in
            channel.embeddedEventLoop.run()  // the new room made: the rest goes on
            before = try Self.read(channel)
            work.runAll(channel)
            after = try Self.read(channel)
        }, songs: Self.songs)
        #expect(before == MPDSession.greeting + "OK\nOK\n" + each)
        #expect(after == each + each + "OK\nOK\n")
    }

    @Test func aFailureEndsTheListWithItsIndex() throws {
        let text = try Self.answers("command_list_ok_begin\nping\nmoveoutput nosuch\nping\ncommand_list_end\nping\n")
        #expect(text == MPDSession.greeting + "list_OK\nACK [50@1] {moveoutput} No such output\nOK\n")
    }

    @Test func aDeletedRoomIsGoneWhenItIsAnswered() throws {
        let text = try Self.answers("newpartition Attic\ndelpartition Attic\nlistpartitions\ndelpartition default\n")
        #expect(text == MPDSession.greeting + "OK\nOK\npartition: default\nOK\nACK [5@0] {delpartition} cannot delete the default partition\n")
    }

    @Test func aClientGoneMeanwhileIsAnsweredNothing() throws {
        let work = HeldWork(passing: 1)
        var after = "unread"
        _ = try ServerConversation.run("newpartition Kitchen\npartition Kitchen\nmoveoutput null\nping\n", runBlocking: work.take, during: { channel, server in
            channel.embeddedEventLoop.run()  // the new room made: the rest goes on
            _ = try Self.read(channel)
            try channel.close().wait()
            work.runAll(channel)
            after = try Self.read(channel)
            #expect(server.rooms.outputs(of: "Kitchen").map(\.name) == ["null"], "the work itself was done")
        }, songs: Self.songs)
        #expect(after == "")
    }
}
