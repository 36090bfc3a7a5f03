import Foundation

/// Copying the log while it is in use.
extension Transactor {
    /// Writes a consistent copy of the whole file (log and checkpoints) to `path` with SQLite's
    /// `VACUUM INTO`, and returns the head of the copy.
    ///
    /// `VACUUM INTO` reads inside one read transaction, so the copy is the log as of one moment
    /// whatever other processes commit meanwhile, and it never blocks them. A copy of
    /// `library.sqlite` made by `cp` has neither guarantee: it misses what is still in the
    /// `-wal` file, and a commit during the copy tears it. The copy is put in WAL mode (what
    /// `VACUUM INTO` writes is a rollback-journal database), so that it opens as a library
    /// exactly like the original.
    ///
    /// `path` must not exist, or be an empty file (SQLite refuses anything else); the caller
    /// writes to a temporary name and renames it into place.
    public func backup(to path: String) throws -> Int {
        try reader.withLock { r in
            try r.log.connection.statement("VACUUM INTO ?").run(.text(path))
        }
        let copy = try SQLiteLog(path: path, create: false)
        defer { copy.connection.close() }
        try copy.connection.execute("PRAGMA journal_mode=WAL")
        try copy.checkIntact()
        return try copy.head()
    }
}
