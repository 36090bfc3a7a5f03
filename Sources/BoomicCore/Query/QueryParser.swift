import Foundation

/// Reads QUERY arguments the way beets does, in two steps: split the arguments into `,`-separated
/// groups of terms, then read each term as negation, field, operator and pattern.
public enum QueryParser {
    /// - Parameter timeZone: the zone dates in `added:` ranges are read in (the user's, passed in
    ///   so that parsing stays pure).
    public static func parse(_ args: [String], timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws(QueryError) -> ParsedQuery {
        var groups: [[String]] = [[]]
        for arg in args {
            var a = Substring(arg)
            var endsGroup = false
            if a == "," { groups.append([]); continue }
            if a.hasSuffix(","), !a.hasSuffix("\\,") { a = a.dropLast(); endsGroup = true }
            if !a.isEmpty { groups[groups.count - 1].append(String(a)) }
            if endsGroup { groups.append([]) }
        }
        var sort: [SortKey] = []
        var alternatives: [Query] = []
        for group in groups {
            var terms: [Query] = []
            for word in group {
                if let key = sortKey(word) { sort.append(key); continue }
                terms.append(try term(word, timeZone: timeZone))
            }
            if !terms.isEmpty { alternatives.append(terms.count == 1 ? terms[0] : .and(terms)) }
        }
        let q: Query = alternatives.isEmpty ? .all : alternatives.count == 1 ? alternatives[0] : .or(alternatives)
        return ParsedQuery(query: q, sort: sort)
    }

    /// `year+`, `title-`: a known field name followed by the direction.
    static func sortKey(_ word: String) -> SortKey? {
        guard let last = word.last, last == "+" || last == "-", word.count > 1 else { return nil }
        guard let f = FieldName.resolve(String(word.dropLast())) else { return nil }
        return SortKey(field: f, ascending: last == "+")
    }

    static func term(_ word: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws(QueryError) -> Query {
        var w = Substring(word)
        var negated = false
        if let c = w.first, c == "^" || (c == "-" && w.count > 1) { negated = true; w = w.dropFirst() }
        let q = try positiveTerm(w, original: word, timeZone: timeZone)
        return negated ? .not(q) : q
    }

    private static func positiveTerm(_ w: Substring, original: String, timeZone: TimeZone) throws(QueryError) -> Query {
        if w.isEmpty { throw QueryError(term: original, reason: "nothing after the negation sign") }
        if w.first == "#" {
            let path = w.dropFirst().lowercased()
            if path.isEmpty || path == ":" { throw QueryError(term: original, reason: "a tag needs a name, e.g. #jazz or #instruments:piano") }
            return path.hasSuffix(":") ? .tag(String(path.dropLast()), includeChildren: true) : .tag(path, includeChildren: false)
        }
        guard let colon = unescapedColon(in: w) else {
            return .anyField(.substring(Fold.key(unescape(w))))
        }
        let name = String(w[..<colon])
        guard let field = FieldName.resolve(name) else {
            let hint = FieldName.suggestion(for: name).map { "did you mean '\($0)'?" } ?? "known fields are \(FieldName.all.joined(separator: ", "))"
            throw QueryError(term: original, reason: "unknown field '\(name)'; \(hint) (write \\: for a literal colon)")
        }
        if field == .tags {
            return try positiveTerm("#" + w[w.index(after: colon)...], original: original, timeZone: timeZone)
        }
        let pattern = w[w.index(after: colon)...]
        if field == .path, pattern.hasPrefix("/"), !pattern.hasPrefix("//") {
            // beets' path query: an absolute path names a file or a folder and everything under it.
            return .field(field, .pathPrefix(unescape(pattern)))
        }
        if field == .added, !pattern.hasPrefix(":"), !pattern.hasPrefix("=") {
            return .field(field, try dateRange(pattern, original: original, timeZone: timeZone))
        }
        return .field(field, try match(pattern, for: field, original: original))
    }

    private static func match(_ p: Substring, for field: SongField, original: String) throws(QueryError) -> Query.Match {
        if p.hasPrefix(":") {
            let re = String(p.dropFirst())
            do { _ = try NSRegularExpression(pattern: re) } catch {
                throw QueryError(term: original, reason: "'\(re)' is not a valid regular expression")
            }
            return .regex(re)
        }
        if p.hasPrefix("=") { return .exact(unescape(p.dropFirst())) }
        switch field.kind {
        case .int, .double:
            return try range(p, original: original)
        case .bool:
            switch p.lowercased() {
            case "1", "true", "yes": return .exact("true")
            case "0", "false", "no": return .exact("false")
            default: throw QueryError(term: original, reason: "'\(field.name)' is true or false")
            }
        case .string, .strings:
            return .substring(Fold.key(unescape(p)))
        }
    }

    /// `added:2026`, `added:2026-01..`, `added:2026-01-01..2026-03-15`, `added:..2025-12-31T18:00`:
    /// each end names a whole year, month, day or minute, and a range includes all of both ends.
    private static func dateRange(_ p: Substring, original: String, timeZone: TimeZone) throws(QueryError) -> Query.Match {
        func period(_ s: Substring) throws(QueryError) -> (start: Double, end: Double)? {
            if s.isEmpty { return nil }
            guard let r = DatePeriod.parse(String(s), timeZone: timeZone) else {
                throw QueryError(term: original, reason: "'\(s)' is not a date; write 2026, 2026-01, 2026-01-15 or 2026-01-15T10:30")
            }
            return r
        }
        if let r = p.range(of: "..") {
            let lo = try period(p[..<r.lowerBound]), hi = try period(p[r.upperBound...])
            if lo == nil, hi == nil { throw QueryError(term: original, reason: "a date range needs at least one end, e.g. 2026-01..") }
            return .range(lower: lo?.start, upper: hi.map { $0.end.nextDown })
        }
        guard let one = try period(p) else { throw QueryError(term: original, reason: "the date is empty") }
        return .range(lower: one.start, upper: one.end.nextDown)
    }

    /// `1990..1999`, `4..`, `..3`, `1969`: numbers, both ends included.
    private static func range(_ p: Substring, original: String) throws(QueryError) -> Query.Match {
        func number(_ s: Substring) throws(QueryError) -> Double? {
            if s.isEmpty { return nil }
            guard let d = Double(s) else {
                throw QueryError(term: original, reason: "'\(s)' is not a number; write a value like 1969 or a range like 1990..1999")
            }
            return d
        }
        if let r = p.range(of: "..") {
            let lo = try number(p[..<r.lowerBound]), hi = try number(p[r.upperBound...])
            if lo == nil, hi == nil { throw QueryError(term: original, reason: "a range needs at least one end, e.g. 1990..1999 or 4..") }
            return .range(lower: lo, upper: hi)
        }
        let v = try number(p)
        if v == nil { throw QueryError(term: original, reason: "the value is empty") }
        return .range(lower: v, upper: v)
    }

    private static func unescapedColon(in w: Substring) -> Substring.Index? {
        var i = w.startIndex
        while i < w.endIndex {
            if w[i] == "\\" { i = w.index(after: i); if i < w.endIndex { i = w.index(after: i) }; continue }
            if w[i] == ":" { return i }
            i = w.index(after: i)
        }
        return nil
    }

    private static func unescape(_ s: Substring) -> String {
        s.contains("\\") ? s.replacingOccurrences(of: "\\:", with: ":").replacingOccurrences(of: "\\,", with: ",") : String(s)
    }
}
