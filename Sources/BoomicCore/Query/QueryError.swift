import Foundation

/// A query that cannot be read. Quotes the term and says what is accepted.
public struct QueryError: Error, Equatable, LocalizedError {
    public var term: String
    public var reason: String

    public init(term: String, reason: String) {
        self.term = term
        self.reason = reason
    }

    /// A regular expression that ran longer than `RegexBudget.perValue` on one value.
    public static func regexTooSlow(_ pattern: String) -> QueryError {
        QueryError(term: ":" + pattern, reason: "the regular expression ran too long on one value and was stopped; "
                   + "nested repeats such as (.*)* try every way to split a text")
    }

    /// One line whatever was typed: a long term is cut after 40 characters, control
    /// characters (in the term and in pieces of it the reason quotes) are shown escaped.
    public var errorDescription: String? {
        "bad query term '\(OneLine.excerpt(term, around: 0))': \(OneLine.visible(Self.shortened(reason)))"
    }

    private static func shortened(_ s: String) -> String {
        s.count <= 400 ? s : String(s.prefix(400)) + "…"
    }
}
