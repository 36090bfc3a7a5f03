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
        let deadline = Date().addingTimeInterval(10)
        while !accepts(port) {
            guard process.isRunning, Date() < deadline else { throw ChildProcess.LaunchError(description: failure()) }
            Thread.sleep(forTimeInterval: 0.05)
        }
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

    /// What every python-mpd2 script starts with: the imports, the port (argv[1]), `out` (printed
    /// as JSON at the end by the script) and `run(name, f)`, which keeps f's result or its
    /// `CommandError` text under `name`.
    static let pythonPrelude = #"""
    import json, sys, time, threading, mpd
    port = int(sys.argv[1])
    out = {}
    def run(name, f):
        try:
            out[name] = f()
        except mpd.CommandError as e:
            out[name] = {"error": str(e)}

    """#

    /// Runs a python3 script with the port as its argument (python-mpd2 tests, raw sockets).
    func python(_ script: String, _ arguments: String...) throws -> ProcessRun { try python(script, arguments) }

    private func python(_ script: String, _ arguments: [String]) throws -> ProcessRun {
        let path = box.root + "/client-\(UUID().uuidString.prefix(6)).py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return try ChildProcess.run("/usr/bin/python3", [path, String(port)] + arguments)
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
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
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
