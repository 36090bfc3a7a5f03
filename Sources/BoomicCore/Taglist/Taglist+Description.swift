// Printing taglists back in the syntax the parser reads, so that what `taglist show` prints can
// be typed again: `parse(print(t)) == t` for every tree the parser can produce.

extension Taglist: CustomStringConvertible {
    /// The clauses as shell arguments, each single-quoted:
    /// `'+#english,#french' '-#french' '-@year:<2000'`.
    public var description: String {
        arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }
}

extension Clause: CustomStringConvertible {
    /// The sign, then the rules separated by commas: `+#english,#french`. A negative clause
    /// prints with `-` (`^` reads the same).
    public var description: String {
        (sign == .positive ? "+" : "-") + rules.map(\.description).joined(separator: ",")
    }
}

extension Rule: CustomStringConvertible {
    /// `#english`, `#instruments:`, `@year:<2000`, `@year:1990..1999`, `count(#instruments:) <= 2`.
    public var description: String {
        switch self {
        case .tag(let path): return "#" + Self.escapedTag(path)
        case .tagPrefix(let path): return "#" + Self.escapedTag(path) + ":"
        case .field(let field, let c): return "@" + field.name + ":" + c.description
        case .userField(let name, let c): return "@" + name + ":" + Self.userValue(c)
        case .count(let path, let c):
            let shown: String = switch c {
            case .compare(let op, .number(let n)): op.rawValue + " " + Self.format(n)
            default: c.description
            }
            return "count(#" + Self.escapedTag(path) + ":) " + shown
        }
    }

    /// A user field's comparison, with a text that would read as a number (after an operator) or
    /// as a range of numbers (alone) made text by escaping its first character: `=\5`, `\1..2`.
    static func userValue(_ c: Comparison) -> String {
        switch c {
        case .contains(let t):
            let e = escapedText(t)
            return !e.contains("\\") && TaglistParser.readsAsRange(e) ? "\\" + e : e
        case .compare(let op, .text(let t)):
            let e = escapedText(t)
            return op.rawValue + (!e.contains("\\") && TaglistParser.readsAsNumber(e) ? "\\" + e : e)
        default:
            return c.description
        }
    }

    /// A number as typed: whole numbers without a fraction, others in the shortest form that
    /// reads back as the same `Double` (`0.1`, `1e+20`).
    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
    }

    /// Each segment of a tag path with the characters that end a tag name escaped.
    static func escapedTag(_ path: String) -> String {
        path.split(separator: ":", omittingEmptySubsequences: false)
            .map { escaped(String($0), special: { c, _ in ",:()#".contains(c) }) }
            .joined(separator: ":")
    }

    /// A text value with `,` and `\` escaped, parentheses escaped unless they pair up, a leading
    /// operator character escaped (so a substring `=x` is not read as `= x`), and spaces at either
    /// end escaped (the parser trims unescaped ones).
    static func escapedText(_ text: String) -> String {
        var depth = 0, balanced = true
        for c in text {
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1; if depth < 0 { balanced = false } }
        }
        balanced = balanced && depth == 0
        return escaped(text, special: { c, i in
            c == "," || (!balanced && (c == "(" || c == ")")) || (i == 0 && "=!<>".contains(c))
        })
    }

    private static func escaped(_ s: String, special: (Character, Int) -> Bool) -> String {
        let chars = Array(s)
        let firstSolid = chars.firstIndex { !$0.isWhitespace } ?? chars.count
        let lastSolid = chars.lastIndex { !$0.isWhitespace } ?? -1
        var out = ""
        for (i, c) in chars.enumerated() {
            if c == "\\" || special(c, i) || i < firstSolid || i > lastSolid { out.append("\\") }
            out.append(c)
        }
        return out
    }
}

extension Comparison: CustomStringConvertible {
    /// The value part of a field rule, after the colon: `miles`, `>3`, `=jazz`, `1990..1999`, `=true`.
    public var description: String {
        switch self {
        case .contains(let text): return Rule.escapedText(text)
        case .compare(let op, .number(let n)): return op.rawValue + Rule.format(n)
        case .compare(let op, .text(let t)): return op.rawValue + Rule.escapedText(t)
        case .compare(let op, .bool(let b)): return op.rawValue + (b ? "true" : "false")
        case .range(let lo, let hi): return (lo.map(Rule.format) ?? "") + ".." + (hi.map(Rule.format) ?? "")
        case .compare(let op, .date(let d)): return op.rawValue + d
        case .dateRange(let lo, let hi): return (lo ?? "") + ".." + (hi ?? "")
        }
    }
}
