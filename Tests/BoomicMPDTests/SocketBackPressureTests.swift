import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import NIOCore
import NIOEmbedded
import Testing

/// Every answer goes down the channel's pipeline, the `status` poll's kept answer too (NIO owns
/// the socket alone), and reaches the client in the order it was made however the socket
/// fills and drains: the bytes a client gets are those it gets from a socket that always takes
/// everything. Serialized, as `ReadSplitTests` (each case starts a library and a player).
@Suite(.serialized) struct SocketBackPressureTests {
    /// The socket, with NIO's hold on it: what NIO writes lands on `bytes` in the order it
    /// reaches the socket. While `full` the socket takes nothing: NIO holds what it was given
    /// and, past its high water mark (256 KiB), says it is not writable, as NIO does.
    final class Socket: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        var bytes: [UInt8] = []
        var full = false
        /// Given to NIO and not yet on the socket; the first `flushed` of them were flushed.
        var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
        var flushed = 0

        init(full: Bool = false) { self.full = full }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            held.append((unwrapOutboundIn(data), promise))
            let count = held.reduce(0) { $0 + $1.0.readableBytes }
            if full, count >= 256 * 1024, let channel = context.channel as? EmbeddedChannel, channel.isWritable {
                channel.isWritable = false
                context.fireChannelWritabilityChanged()
            }
        }

        func flush(context: ChannelHandlerContext) {
            flushed = held.count
            if !full { writeFlushed() }
        }

        /// NIO writes what was flushed; its promises complete, in order.
        private func writeFlushed() {
            let done = held.prefix(flushed)
            held.removeFirst(flushed)
            flushed = 0
            for (buffer, promise) in done {
                bytes += buffer.readableBytesView
                promise?.succeed(())
            }
        }

        /// The client reads again: the socket takes what NIO holds, and the channel is writable.
        func release(_ channel: EmbeddedChannel) {
            full = false
            writeFlushed()
            if !channel.isWritable {
                channel.isWritable = true
                channel.pipeline.fireChannelWritabilityChanged()
            }
        }
    }

    /// Short answers and long ones (`listallinfo` is about 270 kB: past the water mark), in
    /// lists and alone, with `status` polls between.
    static let script = (ReadSplitTests.script.split(separator: "\n").map(String.init) + [
        "listallinfo", "status", "find \"(artist != 'nobody')\"", "ping", "status",
        "command_list_ok_begin", "listall", "status", "lsinfo", "command_list_end", "status",
        "playlistinfo", "status", "searchadd title \"a song\"", "playlistinfo", "status", "ping",
    ]).map { $0 + "\n" }.joined()

    /// 2,000 songs, made once; each conversation opens a copy of its own.
    static let library = Result {
        try PreparedLibrary("socket-back-pressure") { ServerConversation.titledSongs(2_000, artists: 10, albums: 40, seed: 11, in: $0) }
    }

    static let whole = Result { try ServerConversation.run(script, playerSettled: true, library: library.get()) }

    @Test(arguments: 0..<10)
    func theClientGetsWhatNIOAloneWouldSend(seed: UInt64) throws {
        let whole = try Self.whole.get()
        #expect(whole.utf8.count > 400_000, "long answers: \(whole.utf8.count) bytes")
        var random = SplitMix64(seed: seed &+ 1_000)
        // Cut at line ends; the socket fills up now and then, and is read again later.
        var reads = Self.script.split(separator: "\n").map { String($0) + "\n" }
        for i in stride(from: reads.count - 2, through: 0, by: -1) where Double.random(in: 0..<1, using: &random) < 0.3 {
            reads[i] += reads.remove(at: i + 1)
        }
        let socket = Socket()
        let text = try ServerConversation.run(reads[0], outbound: { _ in [socket] }, playerSettled: true, then: { channel in
            for read in reads.dropFirst() {
                let roll = Double.random(in: 0..<1, using: &random)
                if roll < 0.15 { socket.full = true } else if roll < 0.4 { socket.release(channel) }
                try channel.send(read)
            }
            socket.release(channel)
            channel.embeddedEventLoop.run()
        }, library: Self.library.get())
        #expect(text.isEmpty, "everything reached the socket: \(text.prefix(80))")
        #expect(socket.held.isEmpty, "NIO was left holding \(socket.held.count) writes")
        let got = String(decoding: socket.bytes, as: UTF8.self)
        let same = zip(got.utf8, whole.utf8).prefix { $0 == $1 }.count
        // Not `got == whole`: a failure would print both, half a megabyte each.
        #expect(same == whole.utf8.count && got.utf8.count == same, "seed \(seed), reads \(reads.count): first difference at byte \(same) of \(whole.utf8.count): \(got.utf8.dropFirst(same).prefix(80).map { Character(UnicodeScalar($0)) })")
    }

    /// The poll's shortcut (a `status` alone in its read, answered with its kept answer) writes
    /// through the pipeline too: a handler in front of the connection's sees every byte. (Its
    /// answer went to the socket past NIO, which NIO's API does not provide for.)
    @Test func aPollsKeptAnswerGoesDownThePipeline() throws {
        let reads = ["status\n", "status\n", "status\n", "ping\n"]
        let whole = try ServerConversation.run(reads.joined(), playerSettled: true, library: Self.library.get())
        let socket = Socket()
        _ = try ServerConversation.run(reads[0], outbound: { _ in [socket] }, playerSettled: true, then: { channel in
            for read in reads.dropFirst() { try channel.send(read) }
        }, library: Self.library.get())
        #expect(String(decoding: socket.bytes, as: UTF8.self) == whole)
    }

    /// `close` behind answers NIO still holds (the socket is full): they go out first, and the
    /// connection closes once they have; what came after the `close` is not answered.
    @Test func aCloseWaitsForTheAnswersNIOHolds() throws {
        let whole = try ServerConversation.run("status\nplaylistinfo\nping\n", library: Self.library.get())
        let socket = Socket(full: true)
        var openWhileHeld = false, openAfter = true
        _ = try ServerConversation.run("status\nplaylistinfo\nping\nclose\nping\n", outbound: { _ in [socket] }, then: { channel in
            openWhileHeld = channel.isActive
            try channel.writeInbound(ByteBuffer(string: "status\n"))  // after the close: not read
            socket.release(channel)
            openAfter = channel.isActive
        }, library: Self.library.get())
        #expect(openWhileHeld, "the connection waits for what NIO holds")
        #expect(!openAfter, "and closes once it is written")
        #expect(String(decoding: socket.bytes, as: UTF8.self) == whole)
    }
}
