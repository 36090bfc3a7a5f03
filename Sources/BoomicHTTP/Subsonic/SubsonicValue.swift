/// One scalar of a Subsonic answer: an attribute in XML, a typed member in JSON (numbers and
/// booleans unquoted, as Subsonic's own JSON and every client expect).
public enum SubsonicValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)

    /// The text XML carries (attributes are text there).
    public var text: String {
        switch self {
        case let .string(s): s
        case let .int(n): String(n)
        case let .double(x): Self.number(x)
        case let .bool(b): b ? "true" : "false"
        }
    }

    /// A double as JSON and XML write it: integral values without a fraction (`4` rather than
    /// `4.0`, as Subsonic's Java side prints a float that is whole) and no exponent for the
    /// magnitudes answers carry; not-a-number and infinities, which JSON cannot carry, as 0.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        return String(x)
    }
}

extension SubsonicValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
