import Foundation
import Testing

/// One finished child process: what a user or a script sees of it.
struct ProcessRun: CustomStringConvertible, Sendable {
    var arguments: [String]
    /// The exit status, or the signal number when `signaled`.
    var status: Int32
    var signaled: Bool
    var stdout: String
    var stderr: String

    var succeeded: Bool { !signaled && status == 0 }
    /// Lines of stdout without the final newline's empty tail.
    var lines: [String] { Self.lines(stdout) }
    var errorLines: [String] { Self.lines(stderr) }

    static func lines(_ text: String) -> [String] {
        var l = text.components(separatedBy: "\n")
        if l.last == "" { l.removeLast() }
        return l
    }

    var description: String {
        let how = signaled ? "killed by signal \(status)" : "exit \(status)"
        return "`\(arguments.joined(separator: " "))` → \(how)\n--- stdout:\n\(stdout.prefix(3000))\n--- stderr:\n\(stderr.prefix(3000))"
    }
}

/// Runs programs as children, with stdout and stderr captured through files (pipes would
/// deadlock on a large `ls --json` unless drained concurrently) and stdin from /dev/null, so
/// `boomic` sees no terminal anywhere, as in a script.
enum ChildProcess {
    struct LaunchError: Error, CustomStringConvertible { var description: String }

    /// The environment every child gets: ours, minus what would point `boomic` at a real
    /// library or change its output, plus `overrides` (a nil value removes a variable).
    static func environment(_ overrides: [String: String?]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["BOOMIC_LIBRARY", "NO_COLOR", "XDG_DATA_HOME", "XDG_CONFIG_HOME"] { env[key] = nil }
        for (k, v) in overrides { env[k] = v }
        return env
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                    directory: String? = nil) throws -> ProcessRun {
        let capture = NSTemporaryDirectory() + "boomic-cli-capture-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: capture + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: capture + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: capture + ".out")
            try? FileManager.default.removeItem(atPath: capture + ".err")
        }
        let process = try start(executable, arguments, environment: environment, directory: directory,
                                stdout: capture + ".out", stderr: capture + ".err")
        process.waitUntilExit()
        return ProcessRun(
            arguments: [executable] + arguments,
            status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: FileManager.default.contents(atPath: capture + ".out") ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: capture + ".err") ?? Data(), as: UTF8.self))
    }

    /// Starts a child without waiting for it (crash tests kill it); output goes to the given files.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                      directory: String? = nil, stdout: String = "/dev/null", stderr: String = "/dev/null") throws -> Process {
        guard let out = FileHandle(forWritingAtPath: stdout), let err = FileHandle(forWritingAtPath: stderr) else {
            throw LaunchError(description: "cannot open \(stdout) or \(stderr) for writing")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = Self.environment(environment)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try? out.close()
        try? err.close()
        return process
    }
}

/// The `boomic` executable under test.
///
/// SwiftPM puts it in the same products folder as the test bundle (`swift build --build-tests`
/// or `swift test` builds every product), so it is found next to the running test binary;
/// `BOOMIC_EXECUTABLE` overrides that.
enum BoomicExecutable {
    static let path: String? = {
        let fm = FileManager.default
        if let p = ProcessInfo.processInfo.environment["BOOMIC_EXECUTABLE"], !p.isEmpty { return p }
        var starts: [URL] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(URL(fileURLWithPath: exe)) }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath())
        starts.append(Bundle.main.bundleURL)
        for start in starts {
            // Linux: …/debug/BoomicPackageTests.xctest is the binary itself; macOS: a bundle whose
            // executable sits in Contents/MacOS, three levels further down.
            var dir = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = dir.appendingPathComponent("boomic").path
                if fm.isExecutableFile(atPath: candidate) { return candidate }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }()

    static func require() throws -> String {
        guard let path else {
            throw ChildProcess.LaunchError(description: """
                the boomic executable is not next to the test binary (\(CommandLine.arguments[0])); \
                build it with 'swift build --build-tests' or set BOOMIC_EXECUTABLE
                """)
        }
        return path
    }
}

/// The interpreter that has mutagen (the pyenv `python3` on PATH does not).
let systemPython = "/usr/bin/python3"
