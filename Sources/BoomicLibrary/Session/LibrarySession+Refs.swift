import BoomicCore
import Foundation

extension LibrarySession {
    /// Turns a REF (DESIGN §4) into a sequence number; 0 is the empty library.
    ///
    /// Dates are read in `timeZone` (the user's, for a command typed at a shell) as the state at
    /// the end of the moment they name, by the same calendar as dates in queries (`DatePeriod`).
    /// The zone is asked for only when the REF is a date (see `QueryParser.parse`).
    public func resolve(_ text: String, timeZone: @autoclosure () -> TimeZone = .current) throws -> Int {
        guard let ref = Ref.parse(text) else {
            throw LibraryError("'\(text)' is not a REF: use a transaction number, HEAD, HEAD~N, an id prefix or a date like 2026-11-01T10:00")
        }
        let head = self.head
        switch ref {
        case .seq(let n):
            guard n <= head else {
                // `history` shows ids' first 8 hex digits, and some are all decimal digits.
                let digits = text.trimmingCharacters(in: .whitespaces)
                if digits.count >= 4, let e = try transactor.entry(idPrefix: digits) { return e.seq }
                throw LibraryError("there is no transaction \(n); the latest is \(head)")
            }
            return n
        case .head(let back):
            guard back <= head else { throw LibraryError("HEAD~\(back) goes back before the first transaction; the history has \(head)") }
            return head - back
        case .idPrefix(let p):
            guard let e = try transactor.entry(idPrefix: p) else { throw LibraryError("no transaction id starts with '\(p)'; see 'boomic history'") }
            return e.seq
        case .date:
            guard let end = ref.end(in: timeZone()) else { throw LibraryError("'\(text)' is not a valid date") }
            // Everything up to the last instant the date names (timestamps are microseconds).
            return try transactor.seq(atOrBefore: end - 0.000_001)
        }
    }
}
