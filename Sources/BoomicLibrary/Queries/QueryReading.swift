import Foundation
import BoomicCore

/// Reads a QUERY with the library's user fields as field names.
///
/// The user fields are gathered (a pass over the songs) only when the query names something no
/// built-in field is, so queries without user fields cost what they did.
public enum QueryReading {
    public static func parse(_ terms: [String], in basis: @autoclosure () throws -> DataBasis, timeZone: TimeZone = .current) throws -> ParsedQuery {
        do {
            return try QueryParser.parse(terms, timeZone: timeZone)
        } catch {
            let names = try basis().userFieldNames
            if names.isEmpty { throw error }
            return try QueryParser.parse(terms, timeZone: timeZone, userFields: names)
        }
    }
}
