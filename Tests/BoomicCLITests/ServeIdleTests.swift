import BoomicTestSupport
import Foundation
import Testing

/// An idle `boomic serve` sleeps, as MPD does: no client, nothing playing, and its threads
/// wake a few times a second at most (safety-net timeouts), where polls of 20 and 50 ms in the
/// player and 250 ms on the library woke it 91 times a second, and it rewrote its state file
/// every 5 s. Counted from the kernel's tally of each thread's voluntary switches.
@Suite(.serialized, .enabled(if: RunningServer.mpcAvailable, "the MPD clients are installed by scripts/setup"))
struct ServeIdleTests {
    static func wakeups(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") } ?? ""
            return sum + (Int(line.split(separator: "\t").last ?? "") ?? 0)
        }
    }

    @Test func anIdleServerSleepsAndWritesNothing() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        #expect(try server.mpc("status").succeeded)
        Thread.sleep(forTimeInterval: 6)  // past the first state save, the tree, the first net
        let state = box.library + "/player"
        func stamps() -> [String: Date] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []
            return Dictionary(uniqueKeysWithValues: names.map { name in
                (name, ((try? FileManager.default.attributesOfItem(atPath: state + "/" + name))?[.modificationDate] as? Date) ?? .distantPast)
            })
        }
        let before = Self.wakeups(server.process.processIdentifier), filesBefore = stamps()
        Thread.sleep(forTimeInterval: 6)
        let perSecond = Double(Self.wakeups(server.process.processIdentifier) - before) / 6
        #expect(perSecond < 20, "an idle server woke \(perSecond) times a second")
        #expect(stamps() == filesBefore, "an idle server rewrote its state: \(filesBefore) then \(stamps())")
    }

    /// An MPD client idling while another process edits the library: a Boomic-only edit
    /// (`boomic tag +#x`) tells it nothing, a playlist made tells `stored_playlist`, and
    /// `boomic modify` of a song in the queue tells `playlist`, with `plchanges` giving the
    /// entry's new title (ncmpcpp redraws its queue so, where `database` alone left the old one).
    static let edits = RunningServer.pythonPrelude + #"""
    import os, socket, subprocess
    boomic, library, xdg = sys.argv[2], sys.argv[3], sys.argv[4]
    def run_boomic(*args):
        subprocess.run([boomic, "--library", library] + list(args), check=True, env=dict(os.environ, XDG_DATA_HOME=xdg),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    c.add("Miles Quartet/Blue Sketches/01 So Modal.flac")
    version = c.status()["playlist"]
    d = socket.create_connection(("127.0.0.1", port)); d.settimeout(10); d.recv(100)
    def idle(mask):
        d.sendall(("idle " + mask + "\n").encode())
        b = b""
        try:
            while not b.endswith(b"OK\n"): b += d.recv(4096)
        except socket.timeout:
            return ["nothing in 10 s"]
        return sorted(l.split(": ", 1)[1] for l in b.decode().splitlines() if l.startswith("changed: "))
    run_boomic("tag", "-y", "title:So Modal", "+#x")
    run_boomic("playlist", "new", "mix", "title:So Modal")
    out["tag_then_playlist"] = idle("database stored_playlist sticker playlist")
    run_boomic("modify", "-y", "title:So Modal", "title=So Modal Again")
    out["modify"] = idle("playlist")
    out["plchanges"] = [s.get("title") for s in c.plchanges(version)]
    out["status"] = int(c.status()["playlist"]) - int(version)
    print(json.dumps(out))
    """#

    @Test(.enabled(if: RunningServer.pythonMPDAvailable, "python-mpd2 is installed by scripts/setup"))
    func anotherProcesssEditsTellWhatClientsSee() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        let out = try #require(try server.pythonJSON(Self.edits, box.executable, box.library, box.root + "/xdg") as? [String: Any])
        #expect(out["tag_then_playlist"] as? [String] == ["stored_playlist"], "\(out)")
        #expect(out["modify"] as? [String] == ["playlist"], "\(out)")
        #expect(out["plchanges"] as? [String] == ["So Modal Again"], "\(out)")
        #expect(out["status"] as? Int == 1, "\(out)")
        _ = server.stop()
    }
}
