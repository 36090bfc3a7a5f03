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

/// A commit a client asks for (a sticker, a stored playlist) waits for the library's write lock
/// off the event loop, and no longer than `ServerContext.lockWait`: while another process holds
/// the lock (a `boomic import` from the terminal), the loop's other clients are answered, and
/// the client that asked gets an ACK before its own timeout, with nothing committed. (On the
/// loop, `status` from every client on it waited for as long as the other process held it.)
@Suite struct LockedLibraryTests {
    /// Another process that holds SQLite's write lock on the library until told (or 8 s).
    final class LockHolder {
        let process = Process()
        private let input = Pipe(), output = Pipe()
        init(database: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", """
                import select, sqlite3, sys
                c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
                c.execute("BEGIN IMMEDIATE")
                print("held", flush=True)
                select.select([sys.stdin], [], [], 8)
                c.execute("ROLLBACK")
                """, database]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let line = output.fileHandleForReading.availableData
            guard String(decoding: line, as: UTF8.self).hasPrefix("held") else { throw CocoaError(.fileLocking) }
        }
        var isHolding: Bool { process.isRunning }
        func release() {
            input.fileHandleForWriting.write(Data("go\n".utf8))
            process.waitUntilExit()
        }
    }

    @Test(arguments: [
        ("sticker set song \"PATH\" rating 8", "sticker"),
        ("save Evening", "save"),
        ("playlistadd Evening \"PATH\"", "playlistadd"),
    ])
    func aCommitWaitsOffTheLoopAndGivesUpBeforeTheClientDoes(_ request: String, _ command: String) throws {
        let work = BlockingCommandTests.HeldWork()
        var library = ""
        var songs: [Song] = []
        _ = try ServerConversation.run("", runBlocking: work.take, during: { channel, server in
            let holder = try LockHolder(database: library + "/library.sqlite")
            defer { if holder.isHolding { holder.release() } }
            let head = server.library.snapshot.basis, seq = server.library.session.head
            let path = String(songs[0].path.dropFirst(library.count + 1))
            try channel.writeInbound(ByteBuffer(string: request.replacingOccurrences(of: "PATH", with: path) + "\n"))
            #expect(try BlockingCommandTests.read(channel) == MPDSession.greeting, "no answer yet")

            // Another client on the same loop is answered while the lock is held.
            let other = EmbeddedChannel()
            let client = ClientState(id: 2, address: "test", isLocal: false, idle: server.hub.makeSlot(), needsPassword: false)
            try other.pipeline.syncOperations.addHandler(ChannelConnection(server: server, client: client))
            try other.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 6600)).wait()
            try other.writeInbound(ByteBuffer(string: "status\n"))
            let status = try BlockingCommandTests.read(other)
            #expect(status.contains("state: stop\n") && status.hasSuffix("OK\n"), "\(status)")
            #expect(holder.isHolding, "status answered while the other process holds the lock")
            _ = try? other.finish()

            // The commit, off the loop: it gives up while the lock is still held.
            #expect(work.count == 1)
            work.runAll(channel)
            let answer = try BlockingCommandTests.read(channel)
            #expect(holder.isHolding, "the ACK came from the wait, not from the lock's release")
            #expect(answer.hasPrefix("ACK [52@0] {\(command)} Another boomic process kept the library locked"), "\(answer)")
            holder.release()
            server.library.refreshNow()
            #expect(server.library.snapshot.basis[songs[0].id]?.rating == head[songs[0].id]?.rating, "nothing committed")
            #expect(server.library.snapshot.basis.playlistsByName.isEmpty, "nothing committed")
            #expect(server.library.session.head == seq, "no transaction")
        }, songs: { dir in
            library = dir
            songs = ServerConversation.titledSongs(1, artists: 1, albums: 1, seed: 4, in: dir)
            return songs
        })
    }

    /// A running server (its own event loops and queues) on a library of one song, on a free
    /// loopback port.
    static func withRunningServer(seed: UInt64, _ body: (String, [Song], ServerLibrary, Int) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let songs = ServerConversation.titledSongs(1, artists: 1, albums: 1, seed: seed, in: dir)
            _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            let library = ServerLibrary(session: session, folders: [dir])
            let hub = IdleHub()
            let rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: dir), outputs: [.null],
                              sound: SoundSettings(), hub: hub, record: false, warn: { _ in })
            let context = ServerContext(library: library, rooms: rooms, hub: hub, password: nil, version: "test")
            let server = MPDServer(context: context)
            let port = ListenerTests.freePort()
            try server.start(at: .tcp(host: "127.0.0.1", port: port))
            defer {
                server.stop()
                rooms.quitAll()
            }
            try body(dir, songs, library, port)
        }
    }

    /// On a running server (its own event loops and queues): another process holds the write
    /// lock; one client's `sticker set` and a `ping` after it are in flight; another client's
    /// `status` is answered while the lock is still held; once the lock is let go the commit
    /// lands, and the first client gets its two answers, in order.
    @Test func othersAreAnsweredWhileACommitWaitsForTheLock() throws {
        try Self.withRunningServer(seed: 9) { dir, songs, library, port in
            let writer = try #require(ListenerTests.connect(.tcp(host: "127.0.0.1", port: port)))
            let poller = try #require(ListenerTests.connect(.tcp(host: "127.0.0.1", port: port)))
            defer {
                close(writer)
                close(poller)
            }
            #expect(Self.answers(writer, 1) == MPDSession.greeting)
            #expect(Self.answers(poller, 1) == MPDSession.greeting)

            let holder = try LockHolder(database: dir + "/library.sqlite")
            defer { if holder.isHolding { holder.release() } }
            let path = songs[0].path.dropFirst(dir.count + 1)
            Self.send(writer, "sticker set song \"\(path)\" rating 8\nping\n")
            Self.send(poller, "status\n")
            let status = Self.answers(poller, 1)
            #expect(status.contains("state: stop\n") && status.hasSuffix("OK\n"), "\(status)")
            #expect(holder.isHolding, "status answered while the other process holds the lock")
            var ready = pollfd(fd: writer, events: Int16(POLLIN), revents: 0)
            #expect(poll(&ready, 1, 0) == 0, "the commit's client waits for the lock")

            holder.release()
            #expect(Self.answers(writer, 2) == "OK\nOK\n", "the commit's OK, then ping's")
            library.refreshNow()
            #expect(library.snapshot.basis[songs[0].id]?.rating == 4, "committed once the lock was let go")
        }
    }

    /// A client that sends a commit and leaves while another process holds the write lock: the
    /// commit is not dropped with the connection; it lands once the lock is let go.
    @Test func aCommitOfAClientThatLeftLandsAfterTheLock() throws {
        try Self.withRunningServer(seed: 10) { dir, songs, library, port in
            let holder = try LockHolder(database: dir + "/library.sqlite")
            defer { if holder.isHolding { holder.release() } }
            let client = try #require(ListenerTests.connect(.tcp(host: "127.0.0.1", port: port)))
            #expect(Self.answers(client, 1) == MPDSession.greeting)
            Self.send(client, "sticker set song \"\(songs[0].path.dropFirst(dir.count + 1))\" rating 8\n")
            close(client)
            holder.release()
            try waitUntil("the commit to land after its client left") {
                library.refreshNow()
                return library.snapshot.basis[songs[0].id]?.rating == 4
            }
        }
    }

    static func send(_ fd: CInt, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL)) }
    }

    /// What `fd` receives until `count` lines of `OK…` (or 10 s have passed).
    static func answers(_ fd: CInt, _ count: Int) -> String {
        var got: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while String(decoding: got, as: UTF8.self).split(separator: "\n").filter({ $0.hasPrefix("OK") || $0.hasPrefix("ACK") }).count < count,
              Date() < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            got += chunk[..<n]
        }
        return String(decoding: got, as: UTF8.self)
    }
}
