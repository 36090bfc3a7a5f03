import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

/// A command to a player whose thread is held (stuck in a decoder's open, as on a sleeping USB
/// disk) is carried out on the queue at once, once, and answered at once: an `addid` gets its
/// `Id:` from the status after it, and nothing is sent again when the thread is free.
@Suite struct HeldOpenCallTests {
    /// Holds the player's thread where it resolves a song to open, until the test lets go.
    final class Gate: Sendable {
        private let entered = DispatchSemaphore(value: 0)
        private let open = DispatchSemaphore(value: 0)
        private let isOpen = Atomic<Bool>(false)
        var hold: @Sendable (SongID) -> Void {
            { [self] _ in
                guard !isOpen.load(ordering: .acquiring) else { return }
                entered.signal()
                open.wait()
                open.signal()
            }
        }
        /// Waits (up to 10 s) until the player's thread is held.
        func awaitHeld() -> Bool { entered.wait(timeout: .now() + 10) == .success }
        func release() {
            isOpen.store(true, ordering: .releasing)
            open.signal()
        }
    }

    static func read(_ channel: EmbeddedChannel) throws -> String {
        var out = ""
        while let chunk = try channel.readOutbound(as: ByteBuffer.self) { out += String(buffer: chunk) }
        return out
    }

    /// Calls made while the player's thread is held in a decoder's open (a sleeping disk) are
    /// carried out on the queue at once, once each, and answered at once with what they did.
    @Test func aCallWhileThePlayerIsHeldIsCarriedOutOnceAndAnsweredAtOnce() throws {
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let songs = ServerConversation.titledSongs(2, artists: 1, albums: 1, seed: 11, in: dir)
            _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            let library = ServerLibrary(session: session, folders: [dir])
            let hub = IdleHub(), gate = Gate()
            let rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: dir), outputs: [.null],
                              sound: SoundSettings(), hub: hub, record: false, opening: gate.hold, warn: { _ in })
            defer {
                gate.release()
                rooms.quitAll()
            }
            // Work handed off the loop (none is expected) runs when the test says.
            let work = BlockingCommandTests.HeldWork()
            let server = ServerContext(library: library, rooms: rooms, hub: hub, password: nil, version: "test",
                                       runBlocking: work.take, runWaiting: work.take)
            func connect(_ id: Int) throws -> EmbeddedChannel {
                let channel = EmbeddedChannel()
                let client = ClientState(id: id, address: "test", isLocal: false, idle: hub.makeSlot(), needsPassword: false)
                try channel.pipeline.syncOperations.addHandler(ChannelConnection(server: server, client: client))
                try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 6600)).wait()
                _ = try Self.read(channel)
                return channel
            }
            let first = try connect(1), second = try connect(2)
            defer {
                _ = try? first.finish()
                _ = try? second.finish()
            }
            let uri = { (song: Song) in String(song.path.dropFirst(dir.count + 1)) }
            try first.writeInbound(ByteBuffer(string: "add \"\(uri(songs[0]))\"\n"))
            while work.count > 0 { work.runAll(first) }
            #expect(try Self.read(first) == "OK\n")
            // `play` opens the song: the player's thread is held there.
            try first.writeInbound(ByteBuffer(string: "play\n"))
            #expect(gate.awaitHeld(), "the player's thread reached the open")
            #expect(try Self.read(first) == "OK\n", "play answered while the open is held")
            try second.writeInbound(ByteBuffer(string: "addid \"\(uri(songs[1]))\"\n"))
            let added = try Self.read(second)
            var queue = try #require(rooms.player("default")).status.queue
            #expect(added == "Id: \(queue.entries.last.map { String($0.id.rawValue) } ?? "none")\nOK\n", "the addid answered at once: \(added)")

            gate.release()
            while work.count > 0 {
                work.runAll(first)
                second.embeddedEventLoop.run()
            }
            #expect(try Self.read(first) == "" && Self.read(second) == "", "nothing more is answered")
            queue = try #require(rooms.player("default")).status.queue
            #expect(queue.entries.map(\.song) == [songs[0].id, songs[1].id], "each added once: \(queue.entries.map(\.song))")
        }
    }
}
