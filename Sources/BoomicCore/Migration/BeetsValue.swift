import Foundation

/// A value as beets' SQLite database stores it.
public enum BeetsValue: Equatable, Sendable {
    case null
    case int(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// beets keeps a multi-valued field (`artists`, `genres`) as one text joined with `\␀`;
    /// older databases and hand edits join with `; `.
    public static let multiValueDelimiter = "\\\u{2400}"

    /// Whether beets means "no value": NULL, empty text, and 0 in a number column (beets'
    /// null for `INTEGER` and `PaddedInt` fields is 0).
    public var isUnset: Bool {
        switch self {
        case .null: true
        case .int(let i): i == 0
        case .real(let d): d == 0
        case .text(let s): s.isEmpty
        case .blob(let b): b.isEmpty
        }
    }

    /// The value as text: numbers as beets prints them (`3`, `0.8`), text with its multiple
    /// values joined by `; `; nil for NULL, a blob that is not UTF-8, or empty text.
    public var text: String? {
        switch self {
        case .null: return nil
        case .int(let i): return String(i)
        case .real(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .text(let s): return s.isEmpty ? nil : s.replacingOccurrences(of: Self.multiValueDelimiter, with: "; ")
        case .blob(let b): return b.isEmpty ? nil : String(validating: b, as: UTF8.self)
        }
    }

    /// The values of a multi-valued text field, in order.
    public var list: [String] {
        guard case .text(let s) = self, !s.isEmpty else { return text.map { [$0] } ?? [] }
        let delimiter = s.contains(Self.multiValueDelimiter) ? Self.multiValueDelimiter : "; "
        return s.components(separatedBy: delimiter).filter { !$0.isEmpty }
    }

    /// The value as a whole number (text that spells one counts).
    public var int: Int? {
        switch self {
        case .int(let i): return i
        case .real(let d): return Int(exactly: d)
        case .text(let s): return Int(s) ?? Double(s).flatMap { Int(exactly: $0) }
        default: return nil
        }
    }

    public var double: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .real(let d): return d
        case .text(let s): return Double(s)
        default: return nil
        }
    }
}
