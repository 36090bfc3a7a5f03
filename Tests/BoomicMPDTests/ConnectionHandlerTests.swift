import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import NIOEmbedded
import Testing

/// The connection handler on an `EmbeddedChannel`, over a real (empty) library and rooms:
/// what it writes, byte for byte, when NIO calls it back in the middle of its own writes.
@Suite(.serialized) struct ConnectionHandlerTests {
    /// Stands in for NIO's count of unsent bytes: past the high water mark a write makes the
    /// channel unwritable, and the flush that sends everything makes it writable again, each
    /// time telling the handlers behind it at once, from inside the write or flush, as NIO
    /// does when the socket takes all the bytes in one go.
    final class WaterMarks: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        let channel: EmbeddedChannel
        var unsent = 0
        var turns = 0
        init(_ channel: EmbeddedChannel) { self.channel = channel }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            unsent += unwrapOutboundIn(data).readableBytes
            context.write(data, promise: promise)
            if unsent > 256 * 1024, channel.isWritable {
                channel.isWritable = false
                context.fireChannelWritabilityChanged()
            }
        }

        func flush(context: ChannelHandlerContext) {
            context.flush()
            unsent = 0
            if !channel.isWritable {
                channel.isWritable = true
                turns += 1
                context.fireChannelWritabilityChanged()
            }
        }
    }

    /// Everything the handler wrote for `input`, as text, on a library of `songs` songs.
    static func conversation(_ input: String, songs: Int = 0) throws -> (text: String, turns: Int) {
        var marks: WaterMarks?
        let text = try ServerConversation.run(input, outbound: { channel in
            marks = WaterMarks(channel)
            return [marks!]
        }, songs: { dir in
            var ids = SplitMix64(seed: 11)
            return (0..<songs).map { i in
                var song = Song(id: SongID(ids.uuid()), path: "\(dir)/Artist \(i / 100)/Album \(i / 10)/\(i) A Song With A Long Title.flac")
                song.title = "A Song With A Long Title \(i)"
                song.artists = ["Artist \(i / 100)"]
                song.album = "Album \(i / 10)"
                song.duration = 200
                return song
            }
        })
        return (text, marks?.turns ?? 0)
    }

    /// One answer over the high water mark (`listallinfo` of 1,500 songs, ~250 KiB, handed to
    /// NIO as it is), then `ping`: its OK went out twice when the flush that sent it made the
    /// channel writable again and the call back flushed the gathered OK a second time; a
    /// client took the second for the answer to its next command.
    @Test func aBigAnswerEndsInOneOK() throws {
        let (text, turns) = try Self.conversation("listallinfo\nping\n", songs: 1_500)
        #expect(turns > 0, "the channel went unwritable and back while answering")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("file: ") }.count == 1_500)
        #expect(lines.filter { $0 == "OK" }.count == 2, "listallinfo's OK and ping's, once each")
        #expect(Array(lines.suffix(3)) == ["OK", "OK", ""], "\(lines.suffix(4))")
    }

    /// A command list whose answer (200 × `commands`, ~400 KiB) is far over the high water
    /// mark, then `ping`: the list's answer ends in one OK and ping's is the next line. Before
    /// the handler emptied its gathered answers before handing them to NIO, the writability
    /// call back in the middle of the flush sent the last of them (and the OK) twice.
    @Test func anAnswerOverTheWaterMarkIsSentOnce() throws {
        let list = "command_list_begin\n" + String(repeating: "commands\n", count: 200) + "command_list_end\n"
        let (text, turns) = try Self.conversation(list + "ping\n")
        #expect(turns > 0, "the channel went unwritable and back while answering")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "OK MPD 0.23.5")
        #expect(lines.filter { $0 == "OK" }.count == 2, "the list's OK and ping's, once each")
        #expect(Array(lines.suffix(3)) == ["OK", "OK", ""], "ping's OK right after the list's: \(lines.suffix(4))")
        let one = try Self.conversation("commands\n").text.dropFirst("OK MPD 0.23.5\n".count)
        #expect(text.count == "OK MPD 0.23.5\n".count + 200 * (one.count - 3) + 3 + 3, "every byte once")
    }
}
