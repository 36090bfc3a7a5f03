import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import NIOEmbedded

/// A client's conversation with the connection handler on an `EmbeddedChannel`, over a real
/// library (in a temporary folder) and real rooms on the null output.
enum ServerConversation {
    /// Everything the handler wrote for `input`, as text. `songs` gets the library's folder
    /// (the music folder) and gives the songs imported before; `outbound` gives handlers put
    /// in front of the connection's; `then` acts on the channel once the input is in (before
    /// the output is read); `during` does the same with the server at hand; `closed` sees the server once the connection is closed.
    /// `playerSettled` waits for the player's first status before the input: until then a
    /// `status` answer is kept only until the player publishes it.
    /// `runBlocking` takes commands' blocking work, `runWaiting` the work beside it (reading a
    /// file, waiting for a player's call); by default each runs at once, on the test's thread.
    static func run(_ input: String, outbound: (EmbeddedChannel) -> [any ChannelHandler] = { _ in [] },
                    unsentLimit: Int = UnsentAnswers.defaultLimit, playerSettled: Bool = false,
                    runBlocking: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
                    runWaiting: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
                    then: (EmbeddedChannel) throws -> Void = { _ in },
                    during: (EmbeddedChannel, ServerContext) throws -> Void = { _, _ in },
                    closed: (ServerContext) -> Void = { _ in }, songs: (String) -> [Song]) throws -> String {
        try converse(input, outbound: outbound, unsentLimit: unsentLimit, playerSettled: playerSettled, runBlocking: runBlocking,
                     runWaiting: runWaiting, then: then, during: during, closed: closed, prepared: nil, songs: songs)
    }

    /// The same conversation over a copy of `library` (made once), opened in the test's own
    /// folder, with the library's music folder.
    static func run(_ input: String, outbound: (EmbeddedChannel) -> [any ChannelHandler] = { _ in [] },
                    unsentLimit: Int = UnsentAnswers.defaultLimit, playerSettled: Bool = false,
                    runBlocking: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
                    runWaiting: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
                    then: (EmbeddedChannel) throws -> Void = { _ in },
                    during: (EmbeddedChannel, ServerContext) throws -> Void = { _, _ in },
                    closed: (ServerContext) -> Void = { _ in }, library: PreparedLibrary) throws -> String {
        try converse(input, outbound: outbound, unsentLimit: unsentLimit, playerSettled: playerSettled, runBlocking: runBlocking,
                     runWaiting: runWaiting, then: then, during: during, closed: closed, prepared: library, songs: { _ in [] })
    }

    private static func converse(_ input: String, outbound: (EmbeddedChannel) -> [any ChannelHandler], unsentLimit: Int, playerSettled: Bool,
                                 runBlocking: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
                                 runWaiting: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
                                 then: (EmbeddedChannel) throws -> Void, during: (EmbeddedChannel, ServerContext) throws -> Void,
                                 closed: (ServerContext) -> Void, prepared: PreparedLibrary?, songs: (String) -> [Song]) throws -> String {
        try withTemporaryDirectory { dir in
            let location = prepared == nil ? dir : dir + "/library"
            if let prepared { try FileManager.default.copyItem(atPath: prepared.library, toPath: location) }
            let session = try LibrarySession.open(at: location, create: prepared == nil, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let added = songs(dir)
            if !added.isEmpty { _ = try session.commit(kind: .import, message: nil) { _ in (added.map(Assertion.addSong), "add") } }
            let library = ServerLibrary(session: session, folders: [prepared?.music ?? dir])
            let hub = IdleHub()
            let rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: location), outputs: [.null],
                              sound: SoundSettings(), hub: hub, record: false, warn: { _ in })
            defer { rooms.quitAll() }
            let server = ServerContext(library: library, rooms: rooms, hub: hub, password: nil, version: "test",
                                       unsentLimit: unsentLimit, runBlocking: runBlocking,
                                       runWaiting: runWaiting)
            let channel = EmbeddedChannel()
            let client = ClientState(id: 1, address: "test", isLocal: false, idle: hub.makeSlot(), needsPassword: false)
            try channel.pipeline.syncOperations.addHandlers(outbound(channel) + [ChannelConnection(server: server, client: client)])
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 6600)).wait()
            if playerSettled, let engine = rooms.player("default")?.engine {
                _ = engine.statusCaughtUp(within: .seconds(10))
            }
            try channel.writeInbound(ByteBuffer(string: input))
            // Work run at once off the loop (a commit) answers through the loop.
            channel.embeddedEventLoop.run()
            try then(channel)
            try during(channel, server)
            var out = ""
            while let chunk = try channel.readOutbound(as: ByteBuffer.self) { out += String(buffer: chunk) }
            _ = try? channel.finish()
            closed(server)
            return out
        }
    }

    /// `count` songs in `dir`, in folders `Artist A/Album B` (`artists` and `albums` of them),
    /// each titled "A Song With A Title N": a library whose long answers are long.
    static func titledSongs(_ count: Int, artists: Int, albums: Int, seed: UInt64, in dir: String) -> [Song] {
        var ids = SplitMix64(seed: seed)
        return (0..<count).map { i in
            var s = Song(id: SongID(ids.uuid()), path: "\(dir)/Artist \(i % artists)/Album \(i % albums)/\(i) A Song With A Title.flac")
            s.title = "A Song With A Title \(i)"
            s.artists = ["Artist \(i % artists)"]
            s.album = "Album \(i % albums)"
            return s
        }
    }
}

extension EmbeddedChannel {
    /// Reads `text` as one read from the client, then runs what that left on the loop: work
    /// handed off the loop (run at once in these tests) answers through a task on it.
    func send(_ text: String) throws {
        try writeInbound(ByteBuffer(string: text))
        embeddedEventLoop.run()
    }
}
