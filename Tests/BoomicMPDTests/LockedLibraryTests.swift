import BoomicCore
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
            #expect(try BlockingCommandTests.read(channel) == MPDConnectionHandler.greeting, "no answer yet")

            // Another client on the same loop is answered while the lock is held.
            let other = EmbeddedChannel()
            let client = ClientState(id: 2, address: "test", isLocal: false, idle: server.hub.makeSlot(), needsPassword: false)
            try other.pipeline.syncOperations.addHandler(MPDConnectionHandler(server: server, client: client))
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
}
