/// A value as SQLite stores it (its storage class), for callers that interpret another
/// program's columns themselves.
public enum StoredValue: Equatable, Sendable {
    case null
    case int(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
