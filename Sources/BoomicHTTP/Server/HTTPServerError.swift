import Foundation

/// Why the HTTP front cannot start: one line, naming the option or address.
public struct HTTPServerError: Error, LocalizedError, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}
