import BoomicCore

/// The library's transactions go into the log with their kind and label as columns.
extension Transaction: LoggedTransaction {
    public var kindName: String { kind.rawValue }
}
