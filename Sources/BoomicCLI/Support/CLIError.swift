import ArgumentParser
import Foundation

/// An error the CLI itself reports: one sentence, what went wrong and what to do.
struct CLIError: Error, LocalizedError, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    var errorDescription: String? { message }
    var description: String { message }
}
