/// Reads taglist clauses by recursive descent, one function per grammar rule, as Quod Libet's
/// query parser does: each function reads its rule at the current position or throws an error
/// that names the offset and what the rule accepts there.
///
/// ```
/// clause     := space sign space ruleList space END
/// sign       := "+" | "-" | "^"
/// ruleList   := "(" space rules space ")" | rules
/// rules      := rule (space "," space rule)*
/// rule       := tagRule | fieldRule | countRule
/// tagRule    := "#" tagPath
/// tagPath    := tagName (":" tagName)* [":"]          a trailing ":" means any child
/// fieldRule  := "@" fieldName (":" value | "(" value ")")
/// value      := numeric | truth | textual | userValue  chosen by the field's type
/// userValue  := operator space number | range | textual   a user field's (numbers ending the value)
/// numeric    := operator space number | range
/// range      := number | number? space ".." space number?
/// truth      := ["=" | "!="] space ("true" | "false" | "yes" | "no" | "1" | "0")
/// textual    := operator space text | text              a text alone is a substring
/// countRule  := "count" space "(" space tagRule space ")" space numeric
/// operator   := "!=" | "<=" | ">=" | "=" | "<" | ">"
/// ```
///
/// The grammar has no recursion (parentheses group the rule list once), so no input can exhaust
/// the stack, and every function moves forward or throws, so reading is linear in the input.
/// Positions are `Character` offsets into the clause, which is what a user counts.
struct TaglistParser {
    /// Which names no built-in field has are the user's fields (`@mood:happy`).
    enum UserFields {
        /// Typed by the user: the library's user fields, and no other name (as in QUERY), so a
        /// typo (`@yeer`) is an error with a suggestion unless a field of that name exists.
        case typed(Set<String>)
        /// Read back from the log with no library at hand: any name a user field can have, since
        /// it was checked against the library when it was typed.
        case stored
    }

    private let source: String
    private let chars: [Character]
    private var pos = 0
    /// Numbers may end in `k` (thousands): set while reading a `bitrate` value, as in QUERY.
    private var kilo = false
    private let userFields: UserFields

    init(_ source: String, userFields: UserFields = .typed([])) {
        self.source = source
        self.chars = Array(source)
        self.userFields = userFields
    }

    // MARK: Entry points

    /// clause := space sign space ruleList space END
    mutating func clause() throws(TaglistError) -> Clause {
        space()
        let sign = try self.sign()
        space()
        let rules = try ruleList()
        space()
        try end(afterRules: true)
        return Clause(sign, rules)
    }

    /// A rule alone, as stored: space rule space END
    mutating func singleRule() throws(TaglistError) -> Rule {
        space()
        let r = try rule()
        space()
        try end(afterRules: false)
        return r
    }

    // MARK: Clauses

    /// sign := "+" | "-" | "^"
    private mutating func sign() throws(TaglistError) -> Clause.Sign {
        switch peek {
        case "+": pos += 1; return .positive
        case "-", "^": pos += 1; return .negative
        default:
            throw fail("a clause starts with + (songs must satisfy it) or - or ^ (songs are left out when they satisfy every such clause), e.g. +#jazz")
        }
    }

    /// ruleList := "(" space rules space ")" | rules
    private mutating func ruleList() throws(TaglistError) -> [Rule] {
        guard peek == "(" else { return try rules() }
        let open = pos
        pos += 1
        space()
        let list = try rules()
        space()
        guard peek == ")" else { throw fail("expected ',' between rules, or ')' to close the '(' at offset \(open)") }
        pos += 1
        return list
    }

    /// rules := rule (space "," space rule)*
    private mutating func rules() throws(TaglistError) -> [Rule] {
        var list = [try rule()]
        while true {
            space()
            guard peek == "," else { return list }
            pos += 1
            space()
            list.append(try rule())
        }
    }

    /// rule := tagRule | fieldRule | countRule
    private mutating func rule() throws(TaglistError) -> Rule {
        switch peek {
        case "#": return try tagRule()
        case "@": return try fieldRule()
        default:
            if lookingAt("count") { return try countRule() }
            throw fail("expected a rule: #tag, #tag: (any child), @field:value, @field(comparison) or count(#tag:) <= n")
        }
    }

    // MARK: Tags

    /// tagRule := "#" tagPath
    private mutating func tagRule() throws(TaglistError) -> Rule {
        pos += 1
        let (path, anyChild) = try tagPath()
        return anyChild ? .tagPrefix(path) : .tag(path)
    }

    /// tagPath := tagName (":" tagName)* [":"]. Lower-cased, as songs store tags.
    private mutating func tagPath() throws(TaglistError) -> (path: String, anyChild: Bool) {
        let first = pos
        var segments = [try tagName()]
        if segments[0].isEmpty { throw fail("expected a tag name after '#', e.g. #jazz or #instruments:piano", at: first) }
        var anyChild = false
        while peek == ":" {
            pos += 1
            let start = pos
            let segment = try tagName()
            if segment.isEmpty {
                if peek == ":" { throw fail("a tag path has an empty part; write #parent:child", at: start) }
                anyChild = true
                break
            }
            segments.append(segment)
        }
        let path = segments.joined(separator: ":").lowercased()
        // An escaped colon is still the nesting colon (songs store tags as `a:b`), so it must not
        // leave an empty part either: `#a\:` would be a tag ending in `:`, which no rule can name.
        if path.split(separator: ":", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw fail("a tag path has an empty part; write #parent:child", at: first)
        }
        return (path, anyChild)
    }

    /// tagName := (any character but `,` `:` `(` `)` `#` | "\" any)*, trimmed of unescaped spaces.
    private mutating func tagName() throws(TaglistError) -> String {
        try word(stoppingAt: { c in c == "," || c == ":" || c == "(" || c == ")" || c == "#" })
    }

    // MARK: Fields

    /// fieldRule := "@" fieldName (":" value | "(" value ")")
    private mutating func fieldRule() throws(TaglistError) -> Rule {
        pos += 1
        let (field, name) = try fieldName()
        func read(_ p: inout TaglistParser) throws(TaglistError) -> Comparison {
            switch field {
            case .song(let f): try p.value(for: f)
            case .user: try p.userValue()
            }
        }
        let v: Comparison
        switch peek {
        case ":":
            pos += 1
            v = try read(&self)
        case "(":
            let open = pos
            pos += 1
            v = try read(&self)
            space()
            guard peek == ")" else { throw fail("expected ')' to close the '(' at offset \(open)") }
            pos += 1
        default:
            throw fail("expected ':' or '(' after '@\(name)', e.g. @year:1969 or @year(>2010)")
        }
        switch field {
        case .song(let f): return .field(f, v)
        case .user(let n): return .userField(n, v)
        }
    }

    /// A name after `@`: a song's field, or one of the user's.
    private enum NamedField {
        case song(SongField)
        case user(String)
    }

    /// fieldName := (letter | digit | "_")+, resolved as QUERY resolves field names: a song's
    /// field, else one of the user's fields (`userFields`).
    private mutating func fieldName() throws(TaglistError) -> (NamedField, String) {
        let start = pos
        while let c = peek, c.isLetter || c.isNumber || c == "_" { pos += 1 }
        let name = String(chars[start..<pos])
        if name.isEmpty { throw fail("expected a field name after '@', e.g. @year:1969 or @artist:miles") }
        if let field = FieldName.resolve(name) { return (.song(field), name) }
        let lower = name.lowercased()
        // `id` can never be a user field (`modify` refuses it), so no stored rule names it either.
        let possible = FieldName.isValidUserFieldName(lower) && lower != "id"
        var known: Set<String> = []
        switch userFields {
        case .stored:
            if possible { return (.user(lower), name) }
        case .typed(let names):
            if possible, names.contains(lower) { return (.user(lower), name) }
            known = names
        }
        let hint = FieldName.suggestion(for: name, userFields: known).map { "did you mean '\($0)'?" }
            ?? "known fields are \((FieldName.all + known.sorted()).joined(separator: ", "))"
        throw fail("unknown field '\(Self.short(name))'; \(hint)", at: start)
    }

    /// value := numeric | truth | textual, by the field's type: an explicit operator wins over
    /// the type, which wins over substring, as in QUERY.
    private mutating func value(for field: SongField) throws(TaglistError) -> Comparison {
        space()
        kilo = field == .bitrate
        defer { kilo = false }
        if field.isDate { return try dated() }
        switch field.kind {
        case .int, .double: return try numeric()
        case .bool: return try truth(field)
        case .string, .strings: return try textual()
        }
    }

    /// userValue := operator space number | range | textual
    ///
    /// A user field holds text; as in QUERY, it is compared as a number when the rule says so:
    /// a range of numbers (`@energy:3..7`) or an operator before a number (`@energy:>5`), which
    /// hold for the songs whose value reads as a number (`UserFieldValue.typed`). Anything else
    /// is text: `@mood:happy` a substring, `@mood:=happy` the whole value. A value that would
    /// read as a number is made text by escaping its first character (`@code:=\5`).
    private mutating func userValue() throws(TaglistError) -> Comparison {
        space()
        let start = pos
        if comparisonOperator() != nil {
            space()
            let number = atNumber
            pos = start
            return try number ? numeric() : textual()
        }
        return try atRange ? range() : textual()
    }

    /// Whether `text`, as a user field's value after an operator, reads as a number.
    static func readsAsNumber(_ text: String) -> Bool { TaglistParser(text).atNumber }

    /// Whether `text`, as a user field's value, reads as a range of numbers.
    static func readsAsRange(_ text: String) -> Bool { TaglistParser(text).atRange }

    /// Whether the value at `pos` is a number that ends it: `5`, `-2.5)`, `7 , #a`. Looks ahead
    /// on a copy (the characters are shared, not copied), so reading stays linear.
    private var atNumber: Bool {
        var p = self
        guard let token = p.peekToken(), DecimalNumber.parse(token) != nil else { return false }
        p.pos += token.count
        p.space()
        return p.atValueEnd
    }

    /// Whether the value at `pos` is a range of numbers that ends it: `3..7`, `..7`, `3 .. )`.
    private var atRange: Bool {
        var p = self
        func number() -> Bool? {
            guard let token = p.peekToken() else { return nil }
            p.pos += token.count
            return DecimalNumber.parse(token) != nil
        }
        let lower = p.atDots ? nil : number()
        if lower == false { return false }
        p.space()
        guard p.atDots else { return false }
        p.pos += 2
        p.space()
        let upper = p.atValueEnd ? nil : number()
        if upper == false || (lower == nil && upper == nil) { return false }
        p.space()
        return p.atValueEnd
    }

    /// numeric := operator space number | range
    private mutating func numeric() throws(TaglistError) -> Comparison {
        guard let op = comparisonOperator() else { return try range() }
        space()
        return .compare(op, .number(try number()))
    }

    /// range := number | number? space ".." space number?   (a number alone is `=`)
    private mutating func range() throws(TaglistError) -> Comparison {
        let start = pos
        let lower: Double? = try atDots ? nil : number()
        space()
        guard atDots else { return .compare(.equal, .number(lower!)) }
        pos += 2
        space()
        let upper: Double? = try atValueEnd ? nil : number()
        switch (lower, upper) {
        case (nil, nil):
            throw fail("a range needs at least one end, e.g. 1990..1999, 2000.. or ..1999", at: start)
        case (let lo?, let hi?) where lo > hi:
            throw fail("the range \(Rule.format(lo))..\(Rule.format(hi)) is empty; write the lower end first", at: start)
        default:
            return .range(lower: lower, upper: upper)
        }
    }

    /// number := "-"? digits ("." digits)? (("e" | "E") ("+" | "-")? digits)?
    ///
    /// The token runs to a space, `,`, a parenthesis or `..`, so `19x0` is reported whole.
    private mutating func number() throws(TaglistError) -> Double {
        let start = pos
        while let c = peek, !c.isWhitespace, c != ",", c != "(", c != ")", !atDots { pos += 1 }
        let token = chars[start..<pos]
        if token.isEmpty { throw fail("expected a number, e.g. 1969, <2000 or 1990..1999") }
        let thousands = kilo && (token.last == "k" || token.last == "K")
        let digits = String(thousands ? token.dropLast() : token)
        guard DecimalNumber.isNumber(digits.utf8) else {
            throw fail("'\(Self.short(String(token)))' is not a number; write e.g. 1969, <2000 or 1990..1999", at: start)
        }
        guard let d = DecimalNumber.parse(digits) else { throw fail("'\(Self.short(String(token)))' is too large", at: start) }
        return thousands ? d * 1000 : d
    }

    /// dated := operator space DATE | DATE | DATE? space ".." space DATE? | numeric
    ///
    /// `added` takes dates, as in QUERY (`@added:2026`, `@added:>=2026-01`). A value that is no
    /// date is read as a number of seconds since 1970, as taglists stored before dates did.
    private mutating func dated() throws(TaglistError) -> Comparison {
        let start = pos
        func isDate(_ token: String?) -> Bool { token.map { DatePeriod.parse($0, timeZone: .gmt) != nil } ?? false }
        if let op = comparisonOperator() {
            space()
            let token = peekToken()
            guard isDate(token) else { pos = start; return try numeric() }
            pos += token!.count
            return .compare(op, .date(token!))
        }
        let lower = atDots ? nil : peekToken()
        if lower != nil && !isDate(lower) { return try numeric() }
        pos += lower?.count ?? 0
        space()
        guard atDots else { return .compare(.equal, .date(lower!)) }
        pos += 2
        space()
        let upperStart = pos
        let upper = atValueEnd ? nil : peekToken()
        if lower == nil && !isDate(upper) { pos = start; return try numeric() }
        if let upper, !isDate(upper) {
            throw fail("'\(Self.short(upper))' is not a date; write 2026, 2026-01, 2026-01-15 or 2026-01-15T10:30", at: upperStart)
        }
        pos += upper?.count ?? 0
        switch (lower, upper) {
        case (nil, nil):
            throw fail("a range needs at least one end, e.g. 2026-01.. or ..2025", at: start)
        case (let lo?, let hi?) where DatePeriod.parse(lo, timeZone: .gmt)!.start > DatePeriod.parse(hi, timeZone: .gmt)!.start:
            throw fail("the range \(lo)..\(hi) is empty; write the earlier date first", at: start)
        default:
            return .dateRange(lower: lower, upper: upper)
        }
    }

    /// The token at `pos` as `number` delimits it (to a space, `,`, a parenthesis or `..`), not consumed.
    private func peekToken() -> String? {
        var end = pos
        while end < chars.count, !chars[end].isWhitespace, chars[end] != ",", chars[end] != "(", chars[end] != ")",
              !(end + 1 < chars.count && chars[end] == "." && chars[end + 1] == ".") { end += 1 }
        return end > pos ? String(chars[pos..<end]) : nil
    }

    /// truth := ["=" | "!="] space ("true" | "false" | "yes" | "no" | "1" | "0")
    private mutating func truth(_ field: SongField) throws(TaglistError) -> Comparison {
        let start = pos
        let op = comparisonOperator() ?? .equal
        guard op == .equal || op == .notEqual else {
            throw fail("'\(field.name)' is true or false; compare it with = or !=", at: start)
        }
        space()
        let wordStart = pos
        switch try text().lowercased() {
        case "true", "yes", "1": return .compare(op, .bool(true))
        case "false", "no", "0": return .compare(op, .bool(false))
        default: throw fail("'\(field.name)' is true or false (or yes, no, 1, 0)", at: wordStart)
        }
    }

    /// textual := operator space text | text
    private mutating func textual() throws(TaglistError) -> Comparison {
        if let op = comparisonOperator() {
            space()
            let t = try text()
            if t.isEmpty { throw fail("expected a text after '\(op.rawValue)'") }
            return .compare(op, .text(t))
        }
        let t = try text()
        if t.isEmpty { throw fail("expected a value, e.g. @artist:miles, @genre:=jazz or @year:>2010") }
        return .contains(t)
    }

    /// text := (any character but `,` | "\" any)*, ending at a `)` it did not open; trimmed.
    private mutating func text() throws(TaglistError) -> String {
        var depth = 0
        return try word(stoppingAt: { c in
            if c == "," { return true }
            if c == "(" { depth += 1 }
            if c == ")" { if depth == 0 { return true }; depth -= 1 }
            return false
        })
    }

    // MARK: Counts

    /// countRule := "count" space "(" space tagRule space ")" space numeric
    private mutating func countRule() throws(TaglistError) -> Rule {
        pos += 5
        space()
        guard peek == "(" else { throw fail("expected '(' after count, e.g. count(#instruments:) <= 2") }
        let open = pos
        pos += 1
        space()
        let tagStart = pos
        guard peek == "#", case .tagPrefix(let path) = try tagRule() else {
            throw fail("count takes a tag ending in ':' and counts its children, e.g. count(#instruments:)", at: tagStart)
        }
        space()
        guard peek == ")" else { throw fail("expected ')' to close the '(' at offset \(open)") }
        pos += 1
        space()
        if atValueEnd { throw fail("expected a comparison after count(#\(Self.short(path)):), e.g. <= 2") }
        return .count(path, try numeric())
    }

    // MARK: Tokens

    /// operator := "!=" | "<=" | ">=" | "=" | "<" | ">"   (two-character operators first)
    private mutating func comparisonOperator() -> Comparison.Operator? {
        for op in [Comparison.Operator.notEqual, .lessOrEqual, .greaterOrEqual, .equal, .less, .greater]
        where lookingAt(op.rawValue) {
            pos += op.rawValue.count
            return op
        }
        return nil
    }

    /// Characters up to a stop, with `\x` standing for `x`; unescaped spaces at either end dropped.
    private mutating func word(stoppingAt stop: (Character) -> Bool) throws(TaglistError) -> String {
        var out: [Character] = []
        var kept = 0 // out[..<kept] ends with something that is not an unescaped space
        while let c = peek {
            if c == "\\" {
                guard pos + 1 < chars.count else {
                    throw fail("a '\\' at the end escapes nothing; write \\\\ for a backslash")
                }
                out.append(chars[pos + 1])
                pos += 2
                kept = out.count
                continue
            }
            if stop(c) { break }
            pos += 1
            if c.isWhitespace, out.isEmpty { continue }
            out.append(c)
            if !c.isWhitespace { kept = out.count }
        }
        return String(out[..<kept])
    }

    /// END: nothing left. What stopped the rules decides the message.
    private func end(afterRules: Bool) throws(TaglistError) {
        guard let c = peek else { return }
        if c == ")" { throw fail("unmatched ')'; write \\) for a literal parenthesis") }
        throw fail(afterRules ? "expected ',' between rules, or the end of the clause" : "expected the end of the rule")
    }

    private mutating func space() {
        while let c = peek, c.isWhitespace { pos += 1 }
    }

    private var peek: Character? { pos < chars.count ? chars[pos] : nil }

    private var atDots: Bool { pos + 1 < chars.count && chars[pos] == "." && chars[pos + 1] == "." }

    /// At the end of a value: the end, a `,` or a `)`.
    private var atValueEnd: Bool { peek.map { $0 == "," || $0 == ")" } ?? true }

    private func lookingAt(_ s: String) -> Bool {
        var i = pos
        for c in s {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
        }
        return true
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> TaglistError {
        .badClause(source, offset: offset ?? pos, reason: reason)
    }

    /// Quoted pieces of input stay short, so the message stays one readable line.
    private static func short(_ s: String) -> String { s.count > 24 ? s.prefix(24) + "…" : s }
}
