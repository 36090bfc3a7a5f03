import Foundation

/// Reads QUERY arguments the way beets does, in two steps: split the arguments into `,`-separated
/// groups of terms, then read each term as negation, field, operator and pattern.
public enum QueryParser {
    /// - Parameters:
    ///   - timeZone: the zone dates in `added:` ranges are read in (the user's, passed in
    ///     so that parsing stays pure). Asked for only when a date is read: the first
    ///     `TimeZone.current` of a process costs 1.5 M instructions, as much as the rest of an
    ///     `ls` of a hundred songs without its open.
    ///   - userFields: the user fields the library has (`DataBasis.userFieldNames`): these names
    ///     are fields too; any other unknown name is an error.
    public static func parse(_ args: [String], timeZone: @autoclosure @escaping () -> TimeZone = .gmt,
                             userFields: Set<String> = []) throws(QueryError) -> ParsedQuery {
        let context = Context(zone: timeZone, userFields: userFields)
        var groups: [[String]] = [[]]
        for arg in args {
            // Every comma not written `\,` separates alternatives, wherever it stands in an
            // argument (`a,b`, `a, b`, `a ,b`, `a,` `b`): a term is never a value with a bare
            // comma in it, which matched nothing and said nothing.
            var piece = ""
            var escaped = false
            var split = false
            func endPiece() {
                // Spaces around a comma are the separator's (`'a, b'`); an argument without one
                // is taken as it is.
                let term = split ? piece.trimmingCharacters(in: .whitespaces) : piece
                if !term.isEmpty { groups[groups.count - 1].append(term) }
                piece = ""
            }
            for c in arg {
                if c == ",", !escaped {
                    split = true
                    endPiece()
                    groups.append([])
                } else {
                    piece.append(c)
                }
                escaped = c == "\\" && !escaped
            }
            endPiece()
        }
        var sort: [SortKey] = []
        var alternatives: [Query] = []
        for group in groups {
            var terms: [Query] = []
            for word in group {
                if let key = try sortKey(word, context) { sort.append(key); continue }
                terms.append(try term(word, context))
            }
            if !terms.isEmpty { alternatives.append(terms.count == 1 ? terms[0] : .and(terms)) }
        }
        let q: Query = alternatives.isEmpty ? .all : alternatives.count == 1 ? alternatives[0] : .or(alternatives)
        return ParsedQuery(query: q, sort: sort)
    }

    /// What parsing needs besides the text.
    struct Context {
        var zone: () -> TimeZone
        var userFields: Set<String>
        var timeZone: TimeZone { zone() }
    }

    /// `year+`, `title-`: a field name followed by the direction. A word made of a name and a
    /// sign is always a sort key, as in beets, so an unknown name is an error rather than a
    /// search for the text `foo+` that finds nothing.
    static func sortKey(_ word: String, _ context: Context) throws(QueryError) -> SortKey? {
        guard let last = word.last, last == "+" || last == "-", word.count > 1 else { return nil }
        let name = String(word.dropLast())
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") })
        else { return nil }
        let ascending = last == "+"
        if let f = FieldName.resolve(name), f.spec.isSortable { return SortKey(field: f, ascending: ascending) }
        if context.userFields.contains(name.lowercased()) { return SortKey(userField: name.lowercased(), ascending: ascending) }
        throw QueryError(term: word, reason: "no field '\(name)' to sort by (a word ending in + or - is a sort key; to search for it, write title:\(word)); \(hint(for: name, context))")
    }

    /// Why a name is no field, and what the user may have meant.
    static func unknownFieldReason(_ name: String, _ context: Context) -> String {
        return "unknown field '\(name)'; \(hint(for: name, context))"
    }

    /// The closest known name, else the list of them.
    private static func hint(for name: String, _ context: Context) -> String {
        FieldName.suggestion(for: name, userFields: context.userFields).map { "did you mean '\($0)'?" }
            ?? "known fields are \((FieldName.all.filter { $0 != SongField.userFields.name } + context.userFields.sorted()).joined(separator: ", "))"
    }

    static func term(_ word: String, timeZone: TimeZone = .gmt, userFields: Set<String> = []) throws(QueryError) -> Query {
        try term(word, Context(zone: { timeZone }, userFields: userFields))
    }

    static func term(_ word: String, _ context: Context) throws(QueryError) -> Query {
        var w = Substring(word)
        var negated = false
        // A lone `-` is a negation with nothing after it, as a lone `^` is: read as a bare word
        // it matched every song with a dash anywhere (`boomic remove -` removed them all).
        if let c = w.first, c == "^" || c == "-" { negated = true; w = w.dropFirst() }
        if negated, w.isEmpty {
            throw QueryError(term: word, reason: "nothing after the negation sign"
                + (word == "-" ? " (to search for a dash, write title:- or :- for any field)" : ""))
        }
        let q = try positiveTerm(w, original: word, context)
        return negated ? .not(q) : q
    }

    private static func positiveTerm(_ w: Substring, original: String, _ context: Context) throws(QueryError) -> Query {
        if w.isEmpty { throw QueryError(term: original, reason: "nothing after the negation sign") }
        if w.first == "#" {
            // `\,` is a comma in a tag's name too (a tag made before commas were refused in them).
            let path = w.dropFirst().lowercased().replacingOccurrences(of: "\\,", with: ",")
            if path.isEmpty || path == ":" { throw QueryError(term: original, reason: "a tag needs a name, e.g. #jazz or #instruments:piano") }
            return path.hasSuffix(":") ? .tag(String(path.dropLast()), includeChildren: true) : .tag(path, includeChildren: false)
        }
        // beets reads an operator on a bare word as that match on any field: `=Rock`, `=~rock`,
        // `:^So` (a bare `:` starts a regex, not a field named '').
        if w.hasPrefix("=") || w.hasPrefix(":") {
            return .anyField(try explicit(w, original: original)!)
        }
        guard let colon = unescapedColon(in: w) else {
            return .anyField(.substring(Fold.key(unescape(w))))
        }
        let name = String(w[..<colon])
        let pattern = w[w.index(after: colon)...]
        guard let field = FieldName.resolve(name), field != .userFields else {
            if context.userFields.contains(name.lowercased()) {
                return .userField(name.lowercased(), try userMatch(pattern, original: original))
            }
            throw QueryError(term: original, reason: unknownFieldReason(name, context) + " (write \\: for a literal colon)")
        }
        if field == .tags {
            return try positiveTerm("#" + pattern, original: original, context)
        }
        if field == .path, pattern.hasPrefix("/"), !pattern.hasPrefix("//") {
            // beets' path query: an absolute path names a file or a folder and everything under it.
            return .field(field, .pathPrefix(normalizedPath(unescape(pattern))))
        }
        if field.isDate, !pattern.hasPrefix(":"), !pattern.hasPrefix("=") {
            return .field(field, try dateRange(pattern, original: original, timeZone: context.timeZone))
        }
        return .field(field, try match(pattern, for: field, original: original))
    }

    /// `/music/a/../b/./c` as `/music/b/c`, as beets normalises a path query: `.` and `..` are
    /// resolved by name (no file system access; `..` at the root stays at the root).
    static func normalizedPath(_ path: String) -> String {
        var parts: [Substring] = []
        for p in path.split(separator: "/") {
            if p == "." { continue }
            if p == ".." { _ = parts.popLast(); continue }
            parts.append(p)
        }
        let joined = "/" + parts.joined(separator: "/")
        // A trailing slash still names a folder only.
        return path.hasSuffix("/") && joined != "/" ? joined + "/" : joined
    }

    /// An explicit operator (`::regex`, `=~text`, `=text`), or nil when the pattern has none.
    private static func explicit(_ p: Substring, original: String) throws(QueryError) -> Query.Match? {
        if p.hasPrefix(":") {
            let re = String(p.dropFirst())
            do { _ = try NSRegularExpression(pattern: re) } catch {
                throw QueryError(term: original, reason: "'\(re)' is not a valid regular expression")
            }
            return .regex(re)
        }
        if p.hasPrefix("=~") { return .exactIgnoringCase(CaseFold.full(unescape(p.dropFirst(2)))) }
        if p.hasPrefix("=") { return .exact(unescape(p.dropFirst())) }
        return nil
    }

    /// A user field's text is matched as text, or as numbers in a range (`bpm:100..140`).
    private static func userMatch(_ p: Substring, original: String) throws(QueryError) -> Query.Match {
        if let m = try explicit(p, original: original) { return m }
        if p.contains("..") { return try range(p, original: original) }
        return .substring(Fold.key(unescape(p)))
    }

    private static func match(_ p: Substring, for field: SongField, original: String) throws(QueryError) -> Query.Match {
        if let m = try explicit(p, original: original) { return m }
        switch field.kind {
        case .int, .double:
            return try range(p, original: original, kilo: field == .bitrate)
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
        if let (op, rest) = comparison(p) {
            guard let one = try period(rest) else { throw QueryError(term: original, reason: "the date is empty") }
            switch op {
            case ">": return .range(lower: one.end, upper: nil)
            case ">=": return .range(lower: one.start, upper: nil)
            case "<": return .range(lower: nil, upper: one.start.nextDown)
            default: return .range(lower: nil, upper: one.end.nextDown)
            }
        }
        if let r = p.range(of: "..") {
            let lo = try period(p[..<r.lowerBound]), hi = try period(p[r.upperBound...])
            if lo == nil, hi == nil { throw QueryError(term: original, reason: "a date range needs at least one end, e.g. 2026-01..") }
            if let lo, let hi, lo.start >= hi.end { throw emptyRange(p, r, original: original) }
            return .range(lower: lo?.start, upper: hi.map { $0.end.nextDown })
        }
        guard let one = try period(p) else { throw QueryError(term: original, reason: "the date is empty") }
        return .range(lower: one.start, upper: one.end.nextDown)
    }

    /// A range nothing lies in (`1999..1990`): a slip of the fingers, which would match nothing
    /// and say nothing; the error shows it the right way round.
    private static func emptyRange(_ p: Substring, _ dots: Range<Substring.Index>, original: String) -> QueryError {
        QueryError(term: original, reason: "the range is empty (its first end is after its last); write \(p[dots.upperBound...])..\(p[..<dots.lowerBound])")
    }

    /// `1990..1999`, `4..`, `..3`, `1969`: numbers (`DecimalNumber`), both ends included.
    /// With `kilo` (bitrate), a number may end in `k` for thousands: `320k` is 320000 bit/s.
    private static func range(_ p: Substring, original: String, kilo: Bool = false) throws(QueryError) -> Query.Match {
        func number(_ s: Substring) throws(QueryError) -> Double? {
            if s.isEmpty { return nil }
            let thousands = kilo && (s.hasSuffix("k") || s.hasSuffix("K"))
            guard let d = DecimalNumber.parse(thousands ? s.dropLast() : s) else {
                throw QueryError(term: original, reason: "'\(s)' is not a number; write a value like 1969 or a range like 1990..1999"
                                 + (kilo ? " (bit/s, or kbit/s with k: 320k..)" : ""))
            }
            return thousands ? d * 1000 : d
        }
        if let (op, rest) = comparison(p) {
            guard let v = try number(rest) else { throw QueryError(term: original, reason: "the value is empty") }
            switch op {
            // Strict bounds as the next double: exact, since values compare as doubles.
            case ">": return .range(lower: v.nextUp, upper: nil)
            case ">=": return .range(lower: v, upper: nil)
            case "<": return .range(lower: nil, upper: v.nextDown)
            default: return .range(lower: nil, upper: v)
            }
        }
        if let r = p.range(of: "..") {
            let lo = try number(p[..<r.lowerBound]), hi = try number(p[r.upperBound...])
            if lo == nil, hi == nil { throw QueryError(term: original, reason: "a range needs at least one end, e.g. 1990..1999 or 4..") }
            if let lo, let hi, lo > hi { throw emptyRange(p, r, original: original) }
            return .range(lower: lo, upper: hi)
        }
        let v = try number(p)
        if v == nil { throw QueryError(term: original, reason: "the value is empty") }
        return .range(lower: v, upper: v)
    }

    /// `>N`, `>=N`, `<N`, `<=N` (as taglists write them: `skipcount:>0`): the operator and the rest.
    private static func comparison(_ p: Substring) -> (String, Substring)? {
        for op in [">=", "<=", ">", "<"] where p.hasPrefix(op) { return (op, p.dropFirst(op.count)) }
        return nil
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
