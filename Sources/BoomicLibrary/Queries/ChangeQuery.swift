import Foundation
import BoomicCore

/// The query of a command that changes songs (`remove`, `modify`, `tag`, `write`, `playlist add`
/// and `new`).
///
/// A query left out keeps its documented meaning, but one given and empty — `''`, `' '`, `,`, or
/// a script's `"$UNSET"` — reads as no condition at all and would select every song without
/// anyone having asked for that. So it is refused, and `path:/` is the way to say "every song".
public enum ChangeQuery {
    public static func parse(_ terms: [String], in basis: @autoclosure () throws -> DataBasis, timeZone: @autoclosure @escaping () -> TimeZone = .current) throws -> ParsedQuery {
        try requireNoEmptyTerm(terms)
        return try QueryReading.parse(terms, in: try basis(), timeZone: timeZone())
    }

    /// `,` between terms is the OR separator; anywhere else a term of only spaces and commas
    /// means nothing, and so does a query of separators alone.
    public static func requireNoEmptyTerm(_ terms: [String]) throws {
        let blank = { (t: String) in t.allSatisfy { $0.isWhitespace || $0 == "," } }
        guard let empty = terms.first(where: { blank($0) && $0 != "," })
            ?? (!terms.isEmpty && terms.allSatisfy(blank) ? terms[0] : nil) else { return }
        throw LibraryError("the query term '\(empty)' is empty and would select every song (an unset variable?); nothing changed. Give a query, or 'path:/' for every song")
    }
}
