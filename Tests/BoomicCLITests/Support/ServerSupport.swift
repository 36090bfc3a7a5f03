import BoomicTestSupport
import Foundation
import Testing

/// A `boomic serve` running on a sandbox's library, on a free loopback port, with the null
/// output in real time: what the real-client tests talk to.
final class RunningServer {
    let box: Sandbox
    let port: Int
    let process: Process
    let log: String

    init(_ box: Sandbox, extra: [String] = [], environment: [String: String] = [:],
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.box = box
        port = try Self.freePort()
        log = box.root + "/serve.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = extra.contains("--output") ? [] : ["--output", "null"]
        process = try ChildProcess.start(box.executable, ["--library", box.library, "serve", "--bind", "127.0.0.1:\(port)"]
                                                          + output + extra,
                                         environment: ["XDG_DATA_HOME": box.root + "/xdg", "XDG_CONFIG_HOME": box.root + "/config"]
                                            .merging(environment) { $1 },
                                         stderr: log)
        try Self.waitUntilListening(port, process) { "boomic serve did not listen on \(port): \(serverLog)" }
    }

    /// Waits (up to 10 s) for `process` to accept connections on `port`; throws `failure()`
    /// when it exits first or the time runs out.
    static func waitUntilListening(_ port: Int, _ process: Process, failure: () -> String) throws {
        do {
            try waitUntil("a listener on \(port)") { !process.isRunning || accepts(port) }
        } catch {
            throw ChildProcess.LaunchError(description: "\(error): " + failure())
        }
        guard process.isRunning else { throw ChildProcess.LaunchError(description: failure()) }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var serverLog: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// `mpc ARGS…` against this server.
    func mpc(_ arguments: String...) throws -> ProcessRun { try mpc(arguments) }

    func mpc(_ arguments: [String]) throws -> ProcessRun {
        try ChildProcess.run("/usr/bin/mpc", ["--host", "127.0.0.1", "--port", String(port)] + arguments,
                             environment: ["MPD_HOST": nil, "MPD_PORT": nil])
    }

    /// The scripts' `waitUntil`: `until(what, condition, timeout=10)` returns once `condition()`
    /// holds and ends the script with `timed out after … waiting for WHAT` when it does not; and
    /// `output_waits(threads=1)`, whether so many threads of the server (`SERVER_PID`, which
    /// `python` sets) wait in a write to a full pipe, as a `wav:` output on a pipe nobody reads
    /// comes to (`Watch.waitsInPipeWrite`; a write left behind by a replaced player counts). Scripts wait on these, never on a fixed time.
    static let pythonWaits = #"""
    import os, sys, time
    def until(what, condition, timeout=10):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                sys.exit("timed out after %g s waiting for %s" % (timeout, what))
            time.sleep(0.01)  # the poll's pause, between two looks at the event
    def output_waits(threads=1):
        pid, waiting = int(os.environ["SERVER_PID"]), 0
        for task in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/wchan" % (pid, task)) as f:
                    waiting += f.read().endswith("pipe_write")
            except OSError:
                pass
        return waiting >= threads

    """#

    /// What every python-mpd2 script starts with: the imports, the port (argv[1]), `out` (printed
    /// as JSON at the end by the script), `run(name, f)`, which keeps f's result or its
    /// `CommandError` text under `name`, and the waits of `pythonWaits`.
    static let pythonPrelude = pythonWaits + #"""
    import json, threading, mpd
    port = int(sys.argv[1])
    out = {}
    def run(name, f):
        try:
            out[name] = f()
        except mpd.CommandError as e:
            out[name] = {"error": str(e)}

    """#

    /// What an idle client is told, with sync points instead of a time window (after the
    /// prelude): `watch.told(action, settled, expect)` puts `watch` in `idle`, runs `action`,
    /// waits until `settled()` (the status the action leads to) and until the subsystems in
    /// `expect` have been told (for changes no status shows, a sticker's), then sends a message
    /// on a channel that `watch` follows, and gives every subsystem its idles answered before
    /// that message, in order, one per `changed:` line, going back to `idle` after each answer
    /// as `mpc idleloop` does (the events earlier actions left pending are taken first, the
    /// same way). `c` is a python-mpd2 client for the actions.
    static let pythonIdleWatch = #"""
    import socket
    c = mpd.MPDClient(); c.connect("127.0.0.1", port)
    class IdleWatch:
        def __init__(self):
            self.s = socket.create_connection(("127.0.0.1", port)); self.s.recv(100)
            self.s.settimeout(10)
            self.ask(b"subscribe sync")
        def ask(self, line):
            self.s.sendall(line + b"\n")
            return self.answer()
        def answer(self):
            b = b""
            while not (b.endswith(b"OK\n") or b"ACK [" in b): b += self.s.recv(4096)
            return b.decode()
        def until_marker(self, idling=False):
            got = []
            while "message" not in got:
                if not idling: self.s.sendall(b"idle\n")
                idling = False
                got += self.changed()
            self.ask(b"readmessages")
            return [x for x in got if x != "message"]
        def changed(self):
            return [l.split(": ", 1)[1] for l in self.answer().splitlines() if l.startswith("changed: ")]
        def told(self, action, settled=lambda: True, expect=()):
            c.sendmessage("sync", "before"); self.until_marker()
            self.s.sendall(b"idle\n")
            action()
            until("the action's change to show in status", settled)
            got = []
            while not set(expect) <= set(got):
                got += self.changed()
                self.s.sendall(b"idle\n")
            c.sendmessage("sync", "after")
            return got + self.until_marker(idling=True)
    watch = IdleWatch()

    """#

    /// Runs a python3 script with the port as its argument (python-mpd2 tests, raw sockets).
    func python(_ script: String, _ arguments: String...) throws -> ProcessRun { try python(script, arguments) }

    private func python(_ script: String, _ arguments: [String]) throws -> ProcessRun {
        let path = box.root + "/client-\(UUID().uuidString.prefix(6)).py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return try ChildProcess.run("/usr/bin/python3", [path, String(port)] + arguments,
                                    environment: ["SERVER_PID": String(process.processIdentifier)])
    }

    /// Runs a python3 script that prints JSON (the prelude's `out`), requires it to succeed
    /// (naming the run and the server's log when it does not), and gives the JSON.
    func pythonJSON(_ script: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        try pythonJSON(script, arguments, sourceLocation: sourceLocation)
    }

    func pythonJSON(_ script: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        let run = try python(script, arguments)
        try #require(run.succeeded, "\(run)\n\(serverLog)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    /// SIGTERM, and how the server ended.
    func stop() -> (status: Int32, took: Duration) {
        let start = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return (process.terminationStatus, ContinuousClock.now - start)
    }

    /// SIGTERM, and the exit status if the server ended within `seconds`; else SIGKILL, and nil.
    func stop(within seconds: Double) -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        guard (try? waitUntil("the server to exit", timeout: .seconds(seconds)) { !process.isRunning }) != nil else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    static let mpcAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/mpc")
    static let pythonMPDAvailable = (try? ChildProcess.run("/usr/bin/python3", ["-c", "import mpd"]).succeeded) ?? false

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ChildProcess.LaunchError(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a server accepts connections on the local socket at `path`.
    static func accepts(socket path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
