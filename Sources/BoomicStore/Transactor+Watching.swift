/// Noticing commits made by other processes, for a session that stays open (a player, a server).
extension Transactor {
    /// SQLite's counter of commits made through other connections (`PRAGMA data_version`), read on
    /// the read connection: it moves when another process commits, and when this transactor's own
    /// write connection does. Asking costs one pragma, no read of the log, so a long-lived session
    /// can ask several times a second and call `refresh()` only when it moved.
    public func dataVersion() throws -> Int {
        try reader.withLock { r in try r.log.connection.scalarInt("PRAGMA data_version") ?? 0 }
    }
}

extension Transactor {
    /// Throws why this transactor cannot commit (a library the user may not write, read
    /// immutably), so that a front can refuse a change before showing what it would be.
    public func requireWritable() throws {
        if let readOnlyBecause { throw readOnlyBecause }
    }
}
