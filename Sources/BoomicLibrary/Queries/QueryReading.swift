import Foundation
import BoomicCore

/// Reads a QUERY with the library's user fields as field names.
///
/// The user fields are gathered (a pass over the songs) only when the query names something no
/// built-in field is, so a query without user fields costs no pass over the songs.
public enum QueryReading {
    ///
    /// `now`, for a query on an earlier state (`--as-of`): a user field the library has now but
    /// did not have then is a field, which no song of that state holds, not an unknown word.
    public static func parse(_ terms: [String], in basis: @autoclosure () throws -> DataBasis, now: DataBasis? = nil,
                             timeZone: @autoclosure @escaping () -> TimeZone = .current) throws -> ParsedQuery {
        do {
            return try QueryParser.parse(terms, timeZone: timeZone())
        } catch {
            let names = try basis().userFieldNames.union(now?.userFieldNames ?? [])
            if names.isEmpty { throw error }
            return try QueryParser.parse(terms, timeZone: timeZone(), userFields: names)
        }
    }
}
