import Foundation

/// What a library session refuses or cannot do, in one sentence saying what went wrong and what to
/// do. Fronts show it as it is (the CLI on stderr, the server in an `ACK`).
public struct LibraryError: Error, LocalizedError, CustomStringConvertible, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var errorDescription: String? { message }
    public var description: String { message }
}
