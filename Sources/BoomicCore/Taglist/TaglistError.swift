import Foundation

/// A taglist that cannot be read: one line that quotes the clause, says where reading stopped
/// and what is accepted there.
///
/// `bad taglist clause '-@yeer(<2000)' at offset 1: unknown field 'yeer'; did you mean 'year'?`
public enum TaglistError: Error, Hashable, Sendable, LocalizedError {
    /// The clause as given, the offset (in characters, from 0) of the first thing that could not
    /// be read, and why.
    case badClause(String, offset: Int, reason: String)
    /// A taglist name that cannot be used, and why.
    case badName(String, reason: String)

    public var errorDescription: String? { message }

    /// The one-line message. A long clause is quoted around the offset, and control characters
    /// are escaped (in the quoted clause and in pieces of it the reason quotes), so the message
    /// stays one readable line whatever was typed.
    public var message: String {
        switch self {
        case .badClause(let clause, let offset, let reason):
            return "bad taglist clause '\(OneLine.excerpt(clause, around: offset))' at offset \(offset): \(OneLine.visible(reason))"
        case .badName(let name, let reason):
            return "bad taglist name '\(OneLine.excerpt(name, around: 0))': \(OneLine.visible(reason))"
        }
    }
}
