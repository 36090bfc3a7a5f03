/// The value of one song field, as stored in assertions.
///
/// Patches are field-level (DESIGN §1), so the log needs one value type that every field fits in;
/// `Song` keeps typed properties and `SongField` converts between the two.
public enum FieldValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case strings([String])

    public var isNull: Bool { if case .null = self { true } else { false } }

    /// How the value reads to a person (`show`, `modify` previews).
    public var description: String {
        switch self {
        case .null: return "∅"
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .strings(let xs): return xs.joined(separator: "; ")
        }
    }

    // JSON form: the plain JSON value (null, "text", 3, 2.5, true, ["a","b"]), so the log reads well.
    // Integers and doubles are told apart by the field's type when applied, so a whole double
    // written as `3` decodes as .int and is converted back by SongField.
    //
    // The kinds are tried most common first: a kind that does not match throws, and a thrown
    // DecodingError (its path and message built) costs more than the decode itself, so a text
    // value, most of the log, throws none. JSON's kinds never convert into one another here
    // (a number is no text, `true` no number), so the order changes no result.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let i = try? c.decode(Int.self) { self = .int(i); return }
        if let xs = try? c.decode([String].self) { self = .strings(xs); return }
        if let d = try? c.decode(Double.self) { self = .double(d); return }
        self = .bool(try c.decode(Bool.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .string(let s): try c.encode(s)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .bool(let b): try c.encode(b)
        case .strings(let xs): try c.encode(xs)
        }
    }
}

extension FieldValue {
    /// The value as people read it in a change (`field: old → new`): `∅` for nothing, tags with
    /// their `#`. Fronts escape it for their own medium (a terminal's control characters).
    public func shown(as field: SongField) -> String {
        switch self {
        case .null, .strings([]): return "∅"
        case .strings(let xs) where field == .tags: return xs.map { "#" + $0 }.joined(separator: " ")
        default: return description
        }
    }

    /// `shown`, fit for one line of a message: line breaks as `\n`, and a long value (a lyric,
    /// a comment someone pasted a picture into) cut to its first `limit` characters, with how
    /// long it was, so a warning stays one readable line.
    public func brief(as field: SongField, limit: Int = 60) -> String {
        let text = shown(as: field)
        var whole = ""
        for c in text {
            switch c {
            case "\n", "\r\n": whole += "\\n"
            case "\r": whole += "\\r"
            default: whole.append(c)
            }
        }
        guard whole.count > limit else { return whole }
        return whole.prefix(limit) + "… (\(text.count) characters)"
    }
}
