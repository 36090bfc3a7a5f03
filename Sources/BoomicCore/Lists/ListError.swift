import Foundation

/// Why a taglist or playlist command cannot be carried out: one line saying what and what to do.
public enum ListError: Error, Hashable, Sendable, LocalizedError {
    case notFound(kind: String, name: String, suggestion: String?)
    case exists(kind: String, name: String)
    case badName(kind: String, name: String, reason: String)
    case badPosition(playlist: String, position: Int, count: Int)

    public var errorDescription: String? { message }

    /// One line whatever was typed: names are cut after 40 characters, control characters escaped.
    public var message: String {
        func shown(_ name: String) -> String { OneLine.excerpt(name, around: 0) }
        switch self {
        case .notFound(let kind, let name, let suggestion):
            let command = kind == "EQ profile" ? "eq" : kind
            return "no \(kind) named '\(shown(name))'" + (suggestion.map { "; did you mean '\(shown($0))'?" } ?? "; 'boomic \(command) ls' lists them")
        case .exists(let kind, let name):
            return "a \(kind) named '\(shown(name))' already exists; pick another name or edit that one"
        case .badName(let kind, let name, let reason):
            return "bad \(kind) name '\(shown(name))': \(reason)"
        case .badPosition(let playlist, let position, let count):
            return count == 0
                ? "playlist '\(shown(playlist))' is empty: there is no position \(position)"
                : "playlist '\(shown(playlist))' has positions 1 to \(count), not \(position)"
        }
    }
}
