import Foundation

/// One `FIELD=VALUE` or `FIELD!` from a `modify` command line, parsed and typed.
public struct FieldAssignment: Equatable, Sendable {
    public var field: SongField
    /// `.null` clears the field.
    public var value: FieldValue

    public init(field: SongField, value: FieldValue) {
        self.field = field
        self.value = field.normalize(value)
    }

    /// Parses `year=1969`, `artist=A; B`, `genre!`.
    public static func parse(_ text: String) throws(FieldError) -> FieldAssignment {
        let name: Substring, raw: Substring?
        if let eq = text.firstIndex(of: "=") {
            name = text[..<eq]; raw = text[text.index(after: eq)...]
        } else if text.hasSuffix("!") {
            name = text.dropLast(); raw = nil
        } else {
            throw .malformed(text)
        }
        guard !name.isEmpty, let field = FieldName.resolve(String(name)) else {
            throw .unknownField(String(name), suggestion: FieldName.suggestion(for: String(name)))
        }
        // `art` names a picture in the art store by hash: it comes from the files, never typed.
        guard !field.isFileFact, field != .tags, field != .art else {
            throw field == .tags ? .badValue(field: "tags", value: String(raw ?? ""), expected: "use 'boomic tag QUERY +#tag -#tag'")
                                 : .readOnly(field.name)
        }
        guard let raw else { return FieldAssignment(field: field, value: .null) }
        return FieldAssignment(field: field, value: try typed(String(raw), for: field))
    }

    static func typed(_ raw: String, for field: SongField) throws(FieldError) -> FieldValue {
        let s = raw.trimmingCharacters(in: .whitespaces)
        if s.isEmpty { return .null }
        switch field.kind {
        case .string: return .string(s)
        case .strings:
            return .strings(s.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        case .int:
            guard let i = Int(s) else { throw .badValue(field: field.name, value: raw, expected: "a whole number") }
            return .int(i)
        case .double:
            let t = s.lowercased().hasSuffix("db") ? String(s.dropLast(2)).trimmingCharacters(in: .whitespaces) : s
            guard let d = Double(t), d.isFinite else { throw .badValue(field: field.name, value: raw, expected: "a number") }
            return .double(d)
        case .bool:
            switch s.lowercased() {
            case "1", "true", "yes", "y", "on": return .bool(true)
            case "0", "false", "no", "n", "off": return .bool(false)
            default: throw .badValue(field: field.name, value: raw, expected: "true or false")
            }
        }
    }
}
