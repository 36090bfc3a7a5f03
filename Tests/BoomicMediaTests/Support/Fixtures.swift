import Foundation
import Testing

enum Tool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `arguments[0]` (found on PATH unless absolute) and returns stdout; throws on failure.
    @discardableResult
    static func run(_ arguments: [String], stdin: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed: "
                + String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Runs a Python snippet with the apt python that has mutagen (PLATFORM.md §0).
    static func python(_ script: String, _ args: [String] = []) throws {
        try run(["/usr/bin/python3", "-c", script] + args)
    }

    /// A sine tone made by sox: `seconds` long at `frequency` Hz, written as `path`'s extension.
    static func tone(_ path: String, frequency: Int = 440, seconds: Double = 1, rate: Int = 44100,
                     channels: Int = 2, bits: Int? = 16, silenceFirst: Double = 0) throws {
        var args = ["sox", "-R", "-D", "-n", "-r", "\(rate)", "-c", "\(channels)"]
        if let bits { args += ["-b", "\(bits)"] }
        args += [path, "synth", "\(seconds)", "sine", "\(frequency)"]
        if silenceFirst > 0 { args += ["pad", "\(silenceFirst)", "0"] }
        try run(args)
    }

    /// Sets tags with mutagen's format-neutral "easy" interface (`key=value`, repeated for lists).
    static func tag(_ path: String, _ tags: [String: [String]]) throws {
        let script = """
        import sys, json, mutagen
        f = mutagen.File(sys.argv[1], easy=True)
        if f.tags is None: f.add_tags()
        for k, v in json.loads(sys.argv[2]).items(): f[k] = v
        f.save()
        """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: tags), as: UTF8.self)
        try python(script, [path, json])
    }
}

/// Bytes of a file.
func bytes(of path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
