import Foundation

/// A query that cannot be read. Quotes the term and says what is accepted.
public struct QueryError: Error, Equatable, LocalizedError {
    public var term: String
    public var reason: String

    public init(term: String, reason: String) {
        self.term = term
        self.reason = reason
    }

    public var errorDescription: String? { "bad query term '\(term)': \(reason)" }
}
