import BoomicTestSupport
import Foundation
import Testing

/// The issue's reproduction, on a real server: while another process holds the library's
/// write lock (a `boomic import` or `modify` from the terminal), a client's `sticker set` waits
/// for it off the event loops, so the other clients' `status` is answered while the lock is
/// still held (it waited for as long as the lock was held: 6 s); the sticker's client gets an
/// ACK after 3 s, before its own timeout, and nothing is committed.
@Suite(.serialized, .enabled(if: RunningServer.pythonMPDAvailable, "python3-mpd is installed by scripts/setup"))
struct ServeLockedLibraryTests {
    static let script = RunningServer.pythonPrelude + #"""
    import os, socket, sqlite3
    database, song = sys.argv[2], sys.argv[3]
    def connect():
        s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10); s.recv(64); return s
    def ask(s, line):
        s.sendall(line.encode() + b"\n"); got = b""
        try:
            while not (got.endswith(b"OK\n") or b"ACK" in got): got += s.recv(65536)
        except socket.timeout:
            return "no answer in 10 s"
        return got.decode()
    sticker = connect()
    # Connections go to the event loops in turn: among these, some share the sticker's loop.
    others = [connect() for _ in range(8)]
    lock = sqlite3.connect(database, isolation_level=None, timeout=10)
    lock.execute("BEGIN IMMEDIATE")
    sticker.sendall(('sticker set song "%s" rating 8\n' % song).encode())
    out["status"] = ["state: " in ask(s, "status") for s in others]
    got = b""
    try:
        while not (got.endswith(b"OK\n") or b"ACK" in got): got += sticker.recv(65536)
    except socket.timeout:
        got = b"no answer in 10 s"
    out["sticker"] = got.decode()
    lock.execute("ROLLBACK")  # the lock is released only now
    out["after"] = ask(sticker, 'sticker get song "%s" rating' % song)
    print(json.dumps(out))
    """#

    @Test func otherClientsAreAnsweredWhileAnotherProcessHoldsTheLock() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        defer { _ = server.stop() }
        let out = try #require(try server.pythonJSON(Self.script, box.library + "/library.sqlite",
                                                     "Miles Quartet/Blue Sketches/01 So Modal.flac") as? [String: Any])
        #expect((out["status"] as? [Bool]) == Array(repeating: true, count: 8), "every status answered while the lock is held: \(out)")
        #expect((out["sticker"] as? String)?.hasPrefix("ACK [52@0] {sticker} Another boomic process kept the library locked") == true, "\(out)")
        #expect((out["after"] as? String)?.hasPrefix("ACK [50@0] {sticker} no such sticker") == true, "nothing committed: \(out)")
    }
}
