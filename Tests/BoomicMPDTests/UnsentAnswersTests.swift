import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import NIOEmbedded
import Testing

/// Long answers made whole (`playlist`; not those made as the client reads them,
/// `StreamedAnswersTests`) waiting for clients that do not read them are held under one limit
/// across all connections: past it, a long answer is refused with an error the client can retry
/// on (a soak held a gigabyte for 60 clients that asked for `listallinfo` and never read).
@Suite struct UnsentAnswersTests {
    /// A socket whose client never reads: long writes are kept, their promises never completed;
    /// the short ones (the ACK, the greeting) go through to be read.
    final class NeverRead: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        var held: [(Int, EventLoopPromise<Void>?)] = []
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let bytes = unwrapOutboundIn(data).readableBytes
            if bytes >= 64 * 1024 { held.append((bytes, promise)) } else { context.write(data, promise: promise) }
        }
    }

    /// 1,500 songs: `playlist` of them all is about 85 kB.
    static func songs(_ dir: String) -> [Song] {
        ServerConversation.titledSongs(1_500, artists: 30, albums: 90, seed: 11, in: dir)
    }

    @Test func aLongAnswerPastTheLimitIsRefusedAndTheRoomComesBackAtClose() throws {
        let stalled = NeverRead()
        var server: ServerContext?
        let text = try ServerConversation.run("searchadd title \"a song\"\nplaylist\ncommand_list_begin\nping\nplaylist\ncommand_list_end\nping\n",
                                              outbound: { _ in [stalled] }, unsentLimit: 100_000,
                                              closed: { server = $0 }, songs: Self.songs)
        let lines = text.split(separator: "\n").map(String.init)
        // The first is held whole for the client (one answer always fits); the second, in a
        // list, would go past 100 kB: refused at its place in the list, the list stops there.
        #expect(stalled.held.count == 1 && stalled.held[0].0 > 65_536 && stalled.held[0].0 < 100_000, "\(stalled.held.map(\.0))")
        #expect(lines.contains { $0.hasPrefix("ACK [52@1] {playlist} the server holds ") && $0.hasSuffix("kB of answers that clients have not read yet; try again") },
                "\(lines)")
        #expect(lines.last == "OK", "the connection goes on: \(lines)")
        // Held until NIO is done with the write: here, the connection closed and it failed.
        let unsent = try #require(server?.unsent)
        #expect(unsent.bytes == stalled.held[0].0)
        for (_, promise) in stalled.held { promise?.fail(ChannelError.ioOnClosedChannel) }
        #expect(unsent.bytes == 0)
    }
}
