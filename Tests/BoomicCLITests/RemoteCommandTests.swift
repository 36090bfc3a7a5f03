import BoomicTestSupport
import Foundation
import Testing

/// `boomic status`, `next`, `toggle`, `queue …` and `rooms` drive a running `boomic serve`;
/// with none running, or MPD on the port, they say so in one line and exit 1.
@Suite(.serialized) struct RemoteCommandTests {
    @Test func theCommandLineDrivesARunningServer() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        try box.succeed("modify", "title:Blue in Grey", "genre=Jazz; Cool Jazz", "-y")
        let server = try RunningServer(box)
        let env: [String: String?] = ["BOOMIC_SERVER": "127.0.0.1:\(server.port)"]
        func boomic(_ args: String...) throws -> ProcessRun { try box.boomic(args, environment: env) }

        #expect(try boomic("queue", "add", "artist:miles").stdout == "added 3 songs\n")
        #expect(try boomic("queue").lines.count == 3)
        try #require(try boomic("toggle").succeeded)
        #expect(try boomic("status").lines.first == "▶ Miles Quartet - Blue Sketches - So Modal")
        #expect(try boomic("next").succeeded)
        let queue = try boomic("queue")
        #expect(queue.lines.count == 3 && queue.lines[1].hasPrefix("▶"), "\(queue)")
        #expect(try boomic("pause").succeeded)
        #expect(try boomic("status").lines.first?.hasPrefix("⏸") == true)
        let json = try boomic("status", "--json")
        #expect(json.stdout.contains("\"Title\" : \"Blue in Grey\""), "\(json)")
        // A tag said twice is both values, in order, as python-mpd2 gives them: it kept the first.
        let song = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["song"] as? [String: Any])
        #expect(song["Genre"] as? [String] == ["Jazz", "Cool Jazz"], "\(json)")
        let queued = try #require(try JSONSerialization.jsonObject(with: Data(try boomic("queue", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(queued.map { $0["Genre"] as? [String] ?? [$0["Genre"] as? String ?? ""] } == [["Jazz"], ["Jazz", "Cool Jazz"], ["Jazz"]], "\(queued)")
        #expect(try boomic("rooms").lines.first?.hasPrefix("default  [pause]") == true)
        #expect(try boomic("queue", "clear").succeeded)
        #expect(try boomic("queue").lines == [])
        let badRoom = try box.boomic(["status", "--room", "kitchen"], environment: env)
        #expect(badRoom.status == 1 && badRoom.errorLines.count == 1, "\(badRoom)")
        let badQuery = try boomic("queue", "add", "nosuchfield:x")
        #expect(badQuery.status == 1 && badQuery.errorLines.count == 1, "\(badQuery)")
        let noMatch = try boomic("queue", "add", "title:nothing-like-it")
        #expect(noMatch.status == 1 && noMatch.errorLines == ["Error: no song matches 'title:nothing-like-it'; nothing added"], "\(noMatch)")
        let badServer = try box.boomic(["status", "--server", "garbage::"], environment: env)
        #expect(badServer.status == 64 && badServer.stderr.contains("--server takes HOST:PORT"), "\(badServer)")
        _ = server.stop()

        let none = try boomic("status")
        #expect(none.status == 1 && none.errorLines == ["Error: no Boomic server at 127.0.0.1:\(server.port); start one with 'boomic serve'"], "\(none)")
    }

    /// Real MPD may hold port 6600: a server that answers like MPD but does not know `boomic`.
    @Test func mpdOnThePortIsNotTakenForBoomic() throws {
        let box = try Sandbox(samples: false)
        let script = box.root + "/fake.py"
        try #"""
        import socket, sys
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
        print(s.getsockname()[1], flush=True)
        c, _ = s.accept(); f = c.makefile("rb")
        c.sendall(b"OK MPD 0.23.5\n")
        l = f.readline()
        c.sendall(b'ACK [5@0] {} unknown command "boomic"\n')
        c.close()
        """#.write(toFile: script, atomically: true, encoding: .utf8)
        let out = box.root + "/port"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let fake = try ChildProcess.start("/usr/bin/python3", [script], stdout: out)
        defer { if fake.isRunning { kill(fake.processIdentifier, SIGKILL) } }
        var port = ""
        try waitUntil("the fake server's port") {
            port = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !port.isEmpty
        }
        let run = try box.boomic(["status", "--server", "127.0.0.1:\(port)"])
        #expect(run.status == 1 && run.errorLines == ["Error: 127.0.0.1:\(port) is MPD 0.23.5, not Boomic; pass --server or set BOOMIC_SERVER"], "\(run)")
    }
}
