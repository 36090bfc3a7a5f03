import Foundation

/// One `FIELD=VALUE` or `FIELD!` from a `modify` command line, parsed and typed.
public struct FieldAssignment: Equatable, Sendable {
    public var field: SongField
    /// `.null` clears the field.
    public var value: FieldValue
    /// The user field this sets (`mood=happy`), with `field` `.userFields` and a `.string` value.
    public var userField: String?

    public init(field: SongField, value: FieldValue) {
        self.field = field
        self.value = field.normalize(value)
    }

    /// Sets (or with nil, clears) one of the user's own fields.
    public init(userField name: String, value: String?) {
        field = .userFields
        userField = name
        self.value = value.flatMap { $0.isEmpty ? nil : FieldValue.string($0) } ?? .null
    }

    /// The name as the user reads it: the user field's, else the song field's.
    public var name: String { userField ?? field.name }

    /// Parses `year=1969`, `artist=A; B`, `genre!`; a name no field has is a user field
    /// (`mood=happy`) when it is a valid name and not within two edits of a known one, unless
    /// `newField` (the user said `--new-field`). Clearing (`mood!`) needs a field that exists.
    ///
    /// - Parameter userFields: the user fields the library has.
    public static func parse(_ text: String, userFields: Set<String> = [], newField: Bool = false) throws(FieldError) -> FieldAssignment {
        let name: Substring, raw: Substring?
        if let eq = text.firstIndex(of: "=") {
            name = text[..<eq]; raw = text[text.index(after: eq)...]
        } else if text.hasSuffix("!") {
            name = text.dropLast(); raw = nil
        } else {
            throw .malformed(text)
        }
        guard !name.isEmpty else { throw .malformed(text) }
        guard let field = FieldName.resolve(String(name)) else {
            return try userAssignment(String(name), raw.map(String.init), userFields: userFields, newField: newField)
        }
        // `art` names a picture in the art store by hash: it comes from the files, never typed.
        guard !field.isFileFact, field != .tags, field != .art, field != .userFields else {
            switch field {
            case .tags: throw .badValue(field: "tags", value: String(raw ?? ""), expected: "use 'boomic tag QUERY +#tag -#tag'")
            case .userFields: throw .badValue(field: field.name, value: String(raw ?? ""), expected: "set each of your fields by its name, e.g. mood=happy")
            default: throw .readOnly(field.name)
            }
        }
        guard let raw else { return FieldAssignment(field: field, value: .null) }
        return FieldAssignment(field: field, value: try typed(String(raw), for: field))
    }

    private static func userAssignment(_ typed: String, _ raw: String?, userFields: Set<String>, newField: Bool) throws(FieldError) -> FieldAssignment {
        if typed.lowercased() == "id" { throw .songID }
        let name = typed.lowercased()
        guard FieldName.isValidUserFieldName(name) else {
            if let s = FieldName.suggestion(for: name, userFields: userFields) { throw .unknownField(typed, suggestion: s) }
            throw .badFieldName(typed)
        }
        let value = raw?.trimmingCharacters(in: .whitespaces)
        if userFields.contains(name) { return FieldAssignment(userField: name, value: value) }
        // Clearing a field no song has would do nothing: it is a typo.
        guard let value, !value.isEmpty else {
            throw .unknownField(typed, suggestion: FieldName.suggestion(for: name, userFields: userFields))
        }
        if !newField, let known = FieldName.nearKnownName(name, userFields: userFields) {
            throw .nearKnownField(typed, known: known)
        }
        return FieldAssignment(userField: name, value: value)
    }

    /// The numbers a field takes, and how to say so.
    static func bounds(of field: SongField) -> (ClosedRange<Int>, String)? {
        switch field {
        case .track, .tracktotal, .disc, .disctotal, .movementNumber, .movementTotal: (1...99_999, "a whole number from 1 to 99999")
        case .year: (1...9_999, "a year from 1 to 9999")
        case .rating: (0...5, "a whole number of stars from 0 (none) to 5")
        case .playcount, .skipcount: (0...Int.max, "a whole number, 0 or more")
        default: nil
        }
    }

    static func typed(_ raw: String, for field: SongField) throws(FieldError) -> FieldValue {
        let s = raw.trimmingCharacters(in: .whitespaces)
        if s.isEmpty { return .null }
        switch field.kind {
        case .string: return .string(s)
        case .strings:
            let items = s.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // A sticker is `name=value`: a bare word would be dropped, clearing the stickers.
            if field == .stickers, let bad = items.first(where: { ($0.firstIndex(of: "=") ?? $0.startIndex) == $0.startIndex }) {
                throw .badValue(field: field.name, value: bad, expected: "name=value stickers, separated by ';'")
            }
            return .strings(items)
        case .int:
            guard let i = Int(s) else { throw .badValue(field: field.name, value: raw, expected: "a whole number") }
            // What a file can hold and a scan reads back (`TagValue`): a value outside would
            // be written as something else, or dropped, at every `write`.
            if let (range, expected) = Self.bounds(of: field), !range.contains(i) {
                throw .badValue(field: field.name, value: raw, expected: expected)
            }
            if field == .rating, i == 0 { return .null } // no stars: no rating, as a sticker of 0
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
