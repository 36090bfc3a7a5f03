/// A value as SQLite stores it (its storage class), for callers that interpret another
/// program's columns themselves.
public enum StoredValue: Equatable, Sendable {
    case null
    case int(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension StoredValue {
    /// The value as text, as SQLite's own `CAST(x AS TEXT)` gives it (NULL as empty): for
    /// columns another program keeps as text but SQLite's type affinity may have stored otherwise.
    public var text: String {
        switch self {
        case .null: ""
        case .int(let i): String(i)
        case .real(let d): String(d)
        case .text(let t): t
        case .blob(let b): String(decoding: b, as: UTF8.self)
        }
    }
}
