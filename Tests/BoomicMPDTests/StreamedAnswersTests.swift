import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import NIOEmbedded
import Testing

/// Long answers (`listallinfo`, `find`, `search`, `playlistinfo`, `listplaylistinfo`) are made
/// as the client reads them: a connection whose client does not read holds a slice of its
/// answer, not all of it, and the answer it gets in the end is the same, byte for byte, with
/// what follows it after it.
@Suite struct StreamedAnswersTests {
    /// A socket whose client does not read: writes are held, and past NIO's high water mark
    /// (256 KiB) the channel says it is not writable, as NIO's does.
    final class Stalling: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        var holding = true
        var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
        var heldBytes = 0

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard holding else { return context.write(data, promise: promise) }
            let bytes = unwrapOutboundIn(data)
            heldBytes += bytes.readableBytes
            held.append((bytes, promise))
            if heldBytes >= 256 * 1024, let channel = context.channel as? EmbeddedChannel, channel.isWritable {
                channel.isWritable = false
                context.fireChannelWritabilityChanged()
            }
        }

        /// The client reads: what was held goes out, the channel is writable again.
        func release(_ channel: EmbeddedChannel) {
            holding = false
            for (bytes, promise) in held { channel.write(bytes, promise: promise) }
            held = []
            channel.isWritable = true
            channel.pipeline.fireChannelWritabilityChanged()
            channel.flush()
        }
    }

    /// 6,000 songs in 60 folders: `listallinfo` is about 800 kB. Made once; each conversation
    /// opens a copy of its own.
    static let library = Result {
        try PreparedLibrary("streamed-answers") { ServerConversation.titledSongs(6_000, artists: 20, albums: 60, seed: 23, in: $0) }
    }

    @Test(arguments: [
        "listallinfo\nping\n",
        "command_list_ok_begin\nlistall\nsearch title \"a song\"\nping\ncommand_list_end\nstatus\n",
        "find \"(artist != 'nobody')\"\nlistallinfo \"Artist 3\"\n",
        "searchadd title \"a song\"\nplaylistinfo\nplchanges 0\nping\n",
        "searchaddpl big title \"a song\"\nlistplaylistinfo big\nping\n",
    ])
    func aClientThatDoesNotReadHoldsASliceAndGetsTheWholeAnswerOnceItReads(_ input: String) throws {
        let whole = try ServerConversation.run(input, library: Self.library.get())
        #expect(whole.utf8.count > 700_000, "the answer is long: \(whole.utf8.count) bytes")
        let stalled = Stalling()
        var mostHeld = 0
        let text = try ServerConversation.run(input, outbound: { _ in [stalled] }, then: { channel in
            mostHeld = stalled.heldBytes
            stalled.release(channel)
        }, library: Self.library.get())
        // The water mark, one slice past it (64 KiB), one song's lines and the greeting.
        #expect(mostHeld >= 256 * 1024 && mostHeld < 256 * 1024 + 64 * 1024 + 4096, "held \(mostHeld) bytes of \(whole.utf8.count)")
        #expect(text == whole, "first difference at byte \(zip(text.utf8, whole.utf8).prefix { $0 == $1 }.count)")
    }

    /// A `status` poll sent alone to a client that does not read, while an answer is being
    /// made, requests wait behind a long one, or a command list is paused, is answered after
    /// them, as it would be in the same read; not at once from the kept answer.
    @Test(arguments: [
        ["status\nlistallinfo\n", "status\n"],
        ["status\nlistallinfo\nping\nping\n", "status\n"],
        ["searchadd title \"a song\"\nstatus\nplaylist\nping\n", "status\n"],
        ["searchadd title \"a song\"\nstatus\ncommand_list_begin\nplaylist\nping\ncommand_list_end\n", "status\n"],
    ])
    func aPollWaitsItsTurn(_ reads: [String]) throws {
        let whole = try ServerConversation.run(reads.joined(), playerSettled: true, library: Self.library.get())
        let stalled = Stalling()
        let text = try ServerConversation.run(reads[0], outbound: { _ in [stalled] }, playerSettled: true, then: { channel in
            for read in reads.dropFirst() { try channel.send(read) }
            stalled.release(channel)
        }, library: Self.library.get())
        #expect(text == whole,
                "first difference at byte \(zip(text.utf8, whole.utf8).prefix { $0 == $1 }.count) of \(whole.utf8.count)")
    }

    /// However the walk is sliced, its lines are the same as made at once.
    @Test func aWalkSlicedAnyWayIsTheWalkMadeWhole() {
        var ids = SplitMix64(seed: 5)
        let songs = (0..<700).map { i in
            var s = Song(id: SongID(ids.uuid()), path: "/m/A\(i % 7)/B\(i % 13)/\(i).flac")
            s.title = "T\(i)"
            return s
        }
        let tree = MusicTree(folders: ["/m"], songs: songs)
        var whole = MPDResponse()
        whole.write(TreeLines(walking: tree, from: "", tags: .standard, info: true), upTo: .max)
        #expect(whole.rest == nil && whole.count > 20_000)
        for slice in [1, 100, 4096] {
            var sliced = MPDResponse()
            var rest = TreeLines(walking: tree, from: "", tags: .standard, info: true)
            var calls = 0
            while !rest.write(into: &sliced, atLeast: slice) { calls += 1 }
            #expect(sliced.text == whole.text, "slices of \(slice) bytes")
            #expect(calls >= whole.count / (slice + 400), "slices of \(slice) bytes: \(calls) calls")
        }
    }
}
