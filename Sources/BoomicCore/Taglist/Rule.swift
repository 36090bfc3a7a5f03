/// One rule of a taglist clause (DESIGN §5): a test a song passes or fails on its own.
///
/// Equatable, so parser tests compare trees. Tag paths are stored as songs store tags: without
/// the `#`, lower-cased, segments joined by `:` (`instruments:piano`), never empty and never
/// ending in `:` (that is what `tagPrefix` is for).
///
/// ```
/// #english                  .tag("english")
/// #instruments:piano        .tag("instruments:piano")
/// #instruments:             .tagPrefix("instruments")          any child, at any depth
/// @artist:miles             .field(.artists, .contains("miles"))
/// @rating:>3                .field(.rating, .compare(.greater, .number(3)))
/// @year(<2000)              .field(.year, .compare(.less, .number(2000)))
/// @year:1990..1999          .field(.year, .range(lower: 1990, upper: 1999))
/// count(#instruments:) <= 2 .count("instruments", .compare(.lessOrEqual, .number(2)))
/// @mood:happy               .userField("mood", .contains("happy"))
/// @energy:>5                .userField("energy", .compare(.greater, .number(5)))
/// ```
///
/// Stored (Codable) as its text, `"@year:<2000"`, so a taglist's definition reads in the history
/// the way the user wrote it; the round trip through the parser is tested on random rules.
public indirect enum Rule: Hashable, Sendable {
    /// The song carries exactly this tag. `#instruments` does not match `instruments:piano`.
    case tag(String)
    /// The song carries a child of this tag, at any depth: `#instruments:` matches
    /// `instruments:piano` and `instruments:keys:organ`, not `instruments` itself.
    case tagPrefix(String)
    /// A comparison on one field of the song.
    case field(SongField, Comparison)
    /// How many children of this tag (as `tagPrefix` counts them) the song carries, compared.
    case count(String, Comparison)
    /// A comparison on one of the user's own fields (`modify QUERY mood=happy`), by its name, as
    /// QUERY reads them: a text, compared folded, unless the value is a range of numbers or a
    /// number after an operator, which compare numbers (`UserFieldValue.typed`).
    case userField(String, Comparison)
}

/// How a rule compares a value: the field's type decides the default (a substring for text, a
/// number for numeric fields) and an explicit operator wins, as in QUERY.
public enum Comparison: Hashable, Sendable {
    /// Case- and accent-insensitive substring of a text (`@artist:bjork` finds `Björk`). The
    /// needle is kept as typed and folded when the taglist is compiled.
    case contains(String)
    /// `=`, `!=`, `<`, `<=`, `>`, `>=` against a number, a text (folded on both sides) or a truth value.
    case compare(Operator, Operand)
    /// `a..b`, `a..`, `..b`: inclusive at both ends, either end may be left out.
    case range(lower: Double?, upper: Double?)
    /// `@added:2026-01..2026-03`: dates as QUERY reads them, each naming a whole year, month,
    /// day, hour or minute, both included. Kept as typed: which instants they name depends on the
    /// time zone the taglist is evaluated in (`TaglistMatcher`).
    case dateRange(lower: String?, upper: String?)

    public enum Operator: String, Hashable, Sendable, CaseIterable {
        case equal = "="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    public enum Operand: Hashable, Sendable {
        case number(Double)
        case text(String)
        case bool(Bool)
        /// A date as typed (`2026-01`), compared as the period it names: `<` before its start,
        /// `<=` before its end, `=` within it.
        case date(String)
    }
}

extension Rule: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        // No library at hand: a name no built-in field has is a user field (it was checked
        // against the library's fields when it was typed).
        do { self = try Rule(stored: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
