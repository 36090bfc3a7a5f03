import Foundation

/// A command-line tool that failed, with its command line.
public struct ToolFailure: Error, CustomStringConvertible {
    public var description: String
}

/// Runs `arguments[0]` (found on PATH through `/usr/bin/env`) and returns its stdout as bytes,
/// stderr discarded; throws when it exits non-zero. For reference tools whose output is binary
/// (`flac -d`, `mpg123 -s`) and for makers of fixtures (`sox`, `lame`).
@discardableResult
public func toolOutput(_ arguments: [String]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw ToolFailure(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
    }
    return [UInt8](data)
}
