import BoomicTestSupport
import Foundation
import Testing

/// The venv scripts/setup makes for the OpenSubsonic tests: py-opensonic and py-sonic (the
/// client libraries from PyPI) and supysonic (the peer server, under waitress). Debian packages
/// none of them, so they live in a venv of their own, pinned there.
enum SubsonicVenv {
    static let root = "/opt/subsonic"
    static let python = root + "/bin/python"
    static let available = FileManager.default.isExecutableFile(atPath: root + "/bin/supysonic-server")
        && ((try? ChildProcess.run(python, ["-c", "import libopensonic, libsonic, supysonic, waitress"]).succeeded) ?? false)

    /// Runs `script` (written into the sandbox) with the venv's python and `arguments`, requires
    /// it to succeed (naming the run and `log()` when it does not), and gives the JSON it prints.
    static func json(_ script: String, _ arguments: [String], in box: Sandbox, log: () -> String = { "" },
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        let path = box.root + "/client-\(UUID().uuidString.prefix(6)).py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run(python, [path] + arguments)
        try #require(run.succeeded, "\(run)\n\(log())", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }
}

/// `boomic serve --http` on a sandbox whose samples are imported, with the account `anna`
/// (password `sesame`) and an API key of hers: what the real clients log in to.
final class BoomicSubsonic {
    static let user = "anna"
    static let password = "sesame"
    let server: RunningServer
    let http: Int
    let apiKey: String

    init(_ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try box.succeed(["import", box.music], sourceLocation: sourceLocation)
        try box.boomic(["user", "add", Self.user], input: Self.password + "\n").expectSuccess()
        struct MadeKey: Decodable { var key: String }
        let keys = try decodeJSON([MadeKey].self, box.succeed(["user", "key", "add", Self.user, "--json"], sourceLocation: sourceLocation).stdout)
        apiKey = try #require(keys.first?.key, sourceLocation: sourceLocation)
        http = try RunningServer.freePort()
        server = try RunningServer(box, extra: ["--http", String(http)])
        try RunningServer.waitUntilListening(http, server.process) { [server, http] in "no HTTP on \(http): \(server.serverLog)" }
    }
}

/// supysonic (Subsonic API 1.10–1.12, in Python) serving a folder on a loopback port, with its
/// SQLite database, cache and configuration (`supysonic.conf`, read from the working folder) in
/// `work`, the account `anna` / `sesame`, and the folder scanned before it starts.
final class Supysonic {
    let port: Int
    let process: Process
    let log: String

    init(music: String, work: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try FileManager.default.createDirectory(atPath: work + "/cache", withIntermediateDirectories: true)
        try """
            [base]
            database_uri = sqlite:///\(work)/supysonic.db
            [webapp]
            cache_dir = \(work)/cache
            log_level = WARNING
            [daemon]
            socket = \(work)/daemon.sock
            run_watcher = false
            """.write(toFile: work + "/supysonic.conf", atomically: true, encoding: .utf8)
        let cli = SubsonicVenv.root + "/bin/supysonic-cli"
        for arguments in [["user", "add", BoomicSubsonic.user, "-p", BoomicSubsonic.password],
                          ["folder", "add", "music", music], ["folder", "scan", "music"]] {
            let run = try ChildProcess.run(cli, arguments, environment: ["HOME": work], directory: work)
            try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
        }
        port = try RunningServer.freePort()
        log = work + "/server.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process = try ChildProcess.start(SubsonicVenv.root + "/bin/supysonic-server",
                                         ["-S", "waitress", "-h", "127.0.0.1", "-p", String(port)],
                                         environment: ["HOME": work], directory: work, stdout: log, stderr: log)
        try RunningServer.waitUntilListening(port, process) { [log] in
            "supysonic did not listen: " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
    }

    var serverLog: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// SIGKILL: the test process blocks every signal and a child inherits the mask, so
    /// supysonic (which does not unblock them, as boomic does) never sees a SIGTERM. Its
    /// database is scratch in the sandbox.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
