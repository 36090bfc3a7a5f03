import CSQLite3

/// An SQLite result code, primary or extended, with the names the store needs.
///
/// SQLite reports failures as bare integers (`SQLITE_CORRUPT` is 11, its extended
/// `SQLITE_CORRUPT_INDEX` 779); the low byte of an extended code is its primary code. Named here,
/// like swift-system's `Errno`, so that errors are matched by code and never by message text.
/// An integer literal is a code, so tests can write the number SQLite's documentation gives.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public init(integerLiteral value: Int32) { rawValue = value }

    /// The primary code of an extended one (itself when it is primary).
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue & 0xFF) }

    /// Whether this code, or its primary code, is `other`.
    public func `is`(_ other: SQLiteResultCode) -> Bool {
        self == other || primary == other
    }

    public var description: String { String(rawValue) }

    /// `SQLITE_OK`: success.
    public static let ok = SQLiteResultCode(SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error (bad SQL, a missing table).
    public static let error = SQLiteResultCode(SQLITE_ERROR)
    /// `SQLITE_PERM`: access permission denied.
    public static let permission = SQLiteResultCode(SQLITE_PERM)
    /// `SQLITE_BUSY`: another connection holds the lock longer than the busy timeout.
    public static let busy = SQLiteResultCode(SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict inside one connection's shared cache.
    public static let locked = SQLiteResultCode(SQLITE_LOCKED)
    /// `SQLITE_READONLY`: a write to a database opened (or only openable) read-only.
    public static let readOnly = SQLiteResultCode(SQLITE_READONLY)
    /// `SQLITE_IOERR`: the operating system reported an I/O error (EFBIG past `ulimit -f`, EIO).
    public static let ioError = SQLiteResultCode(SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is malformed (truncated, overwritten, a damaged index).
    public static let corrupt = SQLiteResultCode(SQLITE_CORRUPT)
    /// `SQLITE_FULL`: the disk is full.
    public static let full = SQLiteResultCode(SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file (or its `-wal`/`-shm`) cannot be opened or created.
    public static let cantOpen = SQLiteResultCode(SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a constraint failed.
    public static let constraint = SQLiteResultCode(SQLITE_CONSTRAINT)
    /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE constraint failed (in the log: a repeated id; the
    /// seq, an INTEGER PRIMARY KEY, fails with `SQLITE_CONSTRAINT_PRIMARYKEY` instead).
    public static let constraintUnique = SQLiteResultCode(2067)
    /// `SQLITE_MISUSE`: the library was called in a way it does not allow.
    public static let misuse = SQLiteResultCode(SQLITE_MISUSE)
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    public static let notADatabase = SQLiteResultCode(SQLITE_NOTADB)
    /// `SQLITE_ROW`: `sqlite3_step` has a row.
    public static let row = SQLiteResultCode(SQLITE_ROW)
    /// `SQLITE_DONE`: `sqlite3_step` has finished.
    public static let done = SQLiteResultCode(SQLITE_DONE)

    /// Codes where the cause is the disk or the system, not Boomic: SQLite keeps an errno for them.
    var isSystemFailure: Bool { [.ioError, .full, .cantOpen].contains(primary) }
}
