import CSQLite3
import Foundation
import Glibc

/// One open SQLite database handle, and the only place `sqlite3*` lives.
///
/// Created in a throwing `init`, closed in `deinit` (STYLE "C interop"), so a connection that
/// exists is open. Every call goes through `check`, which turns SQLite's return codes into
/// `StoreError`s that name the C function and quote `sqlite3_errmsg`.
///
/// Not `Sendable`: an SQLite handle must not be used from two threads at once. Owners keep it
/// inside a `Mutex` (see `Transactor`), which hands it to one thread at a time.
final class SQLiteConnection {
    /// How long a statement waits for another process's write lock before failing with
    /// `StoreError.busy`: long enough that two `boomic` commands queue instead of failing.
    static let defaultBusyTimeout: Int32 = 30_000

    private let handle: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]
    /// Set by `close()`: the handle is gone, and every later call throws instead of using it.
    private(set) var isClosed = false

    /// Opens (or creates, unless `readOnly`) the database at `path`.
    ///
    /// `immutable` opens read-only with SQLite's `immutable=1`: no locks, no `-shm` file, the
    /// `-wal` file ignored. Only correct when no other process writes and the WAL is empty; see
    /// `Transactor`'s read-only fallback on a full disk.
    init(path: String, readOnly: Bool = false, immutable: Bool = false,
         busyTimeoutMilliseconds: Int32 = defaultBusyTimeout) throws {
        self.path = path
        var db: OpaquePointer?
        // NOMUTEX: the owner's Mutex already serializes use; SQLite's own mutex would be a second lock.
        let flags = (readOnly || immutable ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
        let name = immutable ? "file:" + Self.uriEscaped(path) + "?immutable=1" : path
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            // SQLite hands back a handle even on failure; it must still be closed.
            sqlite3_close_v2(db)
            throw StoreError.cannotOpen(path: path, code: SQLiteResultCode(rc), message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    /// A path as the path part of an SQLite `file:` URI: `%`, `?` and `#` percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        String(decoding: path.utf8.flatMap { b -> [UInt8] in
            b == UInt8(ascii: "%") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#")
                ? Array(String(format: "%%%02X", b).utf8) : [b]
        }, as: UTF8.self)
    }

    deinit { close() }

    /// Closes the handle now rather than when the connection is freed: a process that keeps its
    /// connection to the end (the CLI never frees its library, to exit fast) must still close
    /// it, because the last connection to close is what folds the `-wal` file back into the
    /// database file and deletes it. Later calls throw; closing twice does nothing.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        // close_v2 rather than close: "if the database connection is associated with unfinalized
        // prepared statements … the database connection becomes an unusable zombie which will
        // automatically be deallocated when the last prepared statement is finalized".
        sqlite3_close_v2(handle)
    }

    private func ensureOpen() throws {
        if isClosed { throw StoreError.sqlite(function: "sqlite3_exec", code: .misuse, message: "the library was closed") }
    }

    /// Changes how long statements wait for a lock; checkpoint writes use 0 so they never queue.
    func setBusyTimeout(milliseconds: Int32) {
        guard !isClosed else { return }
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Copies the transactions the `-wal` file holds into the database file, without waiting for
    /// any lock (`SQLITE_CHECKPOINT_PASSIVE`), so that the database file alone holds them: a copy
    /// of `library.sqlite`, or a `-wal` deleted as a leftover, then loses nothing. Best effort:
    /// a reader in another process may still need older pages, and then the rest waits for the
    /// next checkpoint or the last close.
    ///
    /// Not begun without room for it (`roomShortfall`): a checkpoint writes pages into the
    /// database file in place, so one that runs out of disk half way leaves a file that is
    /// damaged without its `-wal`, where before it held every earlier transaction.
    ///
    /// - Returns: whether every frame of the WAL is now in the database file.
    @discardableResult
    func checkpointWAL() -> Bool {
        guard !isClosed, roomShortfall() == nil else { return false }
        var frames: Int32 = 0, copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied)
        return rc == SQLITE_OK && frames == copied
    }

    /// How many more bytes the disk needs before the `-wal` file can be folded into the database
    /// file, or nil when it has them. A fold that finds the file too small grows it to the
    /// database's full size, page by page; pages it already has are written over in place.
    /// 64 KiB more keeps clear of what others write meanwhile.
    func roomShortfall() -> Int? {
        guard !isClosed else { return nil }
        var db = stat(), fs = statvfs()
        guard stat(path, &db) == 0, let pages = try? scalarInt("PRAGMA page_count"),
              let pageSize = try? scalarInt("PRAGMA page_size")
        else { return nil }
        let growth = pages * pageSize - Int(db.st_size)
        guard growth > 0, statvfs(path, &fs) == 0 else { return nil }
        let needed = growth + (64 << 10), free = Int(fs.f_bavail) * Int(fs.f_frsize)
        return free >= needed ? nil : needed - free
    }

    /// Keeps SQLite from folding the `-wal` file in when the last connection closes: for a close
    /// on a disk without room for it (`roomShortfall`), which would half fold it.
    func keepWALOnClose() {
        guard !isClosed else { return }
        _ = csqlite3_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
    }

    /// Runs one or more SQL statements that return no rows we need.
    func execute(_ sql: String) throws {
        try ensureOpen()
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errmsg)
            throw Self.error(function: "sqlite3_exec", code: rc, message: withSystemError(message, code: rc))
        }
    }

    /// A prepared statement for `sql`, reset and with its bindings cleared, cached by its text.
    ///
    /// Caching matters for commit latency: preparing the insert costs about as much as running it.
    func statement(_ sql: String) throws -> SQLiteStatement {
        try ensureOpen()
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &stmt, nil), "sqlite3_prepare_v2")
        guard let stmt else {
            throw StoreError.sqlite(function: "sqlite3_prepare_v2", code: .misuse, message: "empty statement: \(sql)")
        }
        let statement = SQLiteStatement(stmt, connection: self)
        statements[sql] = statement
        return statement
    }

    /// The summed sizes in bytes of `column`'s values in the rows `rowids` of `table`, newest
    /// (highest rowid) first, stopping as soon as the sum passes `limit`.
    ///
    /// Read from each record's header through a blob handle moved from row to row: `length()`
    /// of a TEXT value reads the whole value to count its characters (a 32 MB import's row takes
    /// longer to measure than to skip), the header says its bytes without touching the rest.
    /// Every rowid in the range must exist.
    func summedSizes(table: String, column: String, rowids: ClosedRange<Int>, limit: Int = .max) throws -> Int {
        try ensureOpen()
        var blob: OpaquePointer?
        // Closing a handle that failed to open is a no-op, and a failed reopen leaves one to close.
        defer { sqlite3_blob_close(blob) }
        var rowid = rowids.upperBound
        try check(sqlite3_blob_open(handle, "main", table, column, Int64(rowid), 0, &blob), "sqlite3_blob_open")
        var total = 0
        while true {
            total += Int(sqlite3_blob_bytes(blob))
            if total > limit || rowid == rowids.lowerBound { return total }
            rowid -= 1
            try check(sqlite3_blob_reopen(blob, Int64(rowid)), "sqlite3_blob_reopen")
        }
    }

    /// The first column of the first row of `sql`, as an integer; nil when there is no row or it is NULL.
    func scalarInt(_ sql: String, _ arguments: SQLiteValue...) throws -> Int? {
        let stmt = try statement(sql)
        try stmt.bind(arguments)
        defer { stmt.reset() }
        guard try stmt.step(), !stmt.isNull(0) else { return nil }
        return stmt.int(0)
    }

    /// The first `count` bytes of the blob in `column` of the row `rowid` of `table`, read
    /// through incremental blob I/O: only the pages they lie on, where selecting the column (even
    /// through `substr`) reads the whole blob and walks its overflow chain. Nil when the row is
    /// absent, the value is not a blob, or it is shorter.
    func blobPrefix(table: String, column: String, rowid: Int, count: Int) -> [UInt8]? {
        withBlob(table: table, column: column, rowid: rowid) { blob, size in
            guard size >= count else { return nil }
            var out = [UInt8](repeating: 0, count: count)
            let rc = out.withUnsafeMutableBytes { sqlite3_blob_read(blob, $0.baseAddress, Int32(count), 0) }
            return rc == SQLITE_OK ? out : nil
        }
    }

    /// The whole blob in `column` of the row `rowid` of `table`, read through incremental blob
    /// I/O into the buffer `make` returns for its size: one copy, from the pages straight into
    /// that buffer, where selecting the column first assembles the blob in a buffer of SQLite's
    /// own. Nil when the row is absent, the value is not a blob, or the read fails.
    func readBlob<B>(table: String, column: String, rowid: Int,
                     into make: (Int) -> (value: B, buffer: UnsafeMutableRawBufferPointer)) -> B? {
        withBlob(table: table, column: column, rowid: rowid) { blob, size in
            let (value, buffer) = make(size)
            guard buffer.count >= size else { return nil }
            guard size > 0 else { return value }
            return sqlite3_blob_read(blob, buffer.baseAddress, Int32(size), 0) == SQLITE_OK ? value : nil
        }
    }

    /// Calls `body` with the blob handle (read-only) of that row's column and the blob's size,
    /// closing it after; nil when the connection is closed or the blob does not open.
    private func withBlob<R>(table: String, column: String, rowid: Int, _ body: (OpaquePointer, Int) -> R?) -> R? {
        guard !isClosed else { return nil }
        var blob: OpaquePointer?
        guard sqlite3_blob_open(handle, "main", table, column, sqlite3_int64(rowid), 0, &blob) == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            return nil
        }
        defer { sqlite3_blob_close(blob) }
        return body(blob, Int(sqlite3_blob_bytes(blob)))
    }

    /// Runs `body` inside a transaction: COMMIT if it returns, ROLLBACK if it throws.
    ///
    /// `immediate` takes the write lock at BEGIN rather than at the first write, so two processes
    /// that read-then-write serialize instead of one failing with SQLITE_BUSY half way.
    func transaction<R>(immediate: Bool, _ body: () throws -> R) throws -> R {
        try begin(immediate: immediate)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// The parts of `transaction`, for callers whose body must not be captured in a closure
    /// together with this connection (Swift's region checking then merges the two).
    func begin(immediate: Bool) throws {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
    }

    func commit() throws {
        try execute("COMMIT")
    }

    /// Rolls back the open transaction, if any; it never fails the caller, who is already failing.
    func rollback() {
        // After some errors SQLite already rolled back; the autocommit check avoids a second error.
        if !isClosed, sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { isClosed ? 0 : Int(sqlite3_changes(handle)) }

    /// Throws the `StoreError` for `code` unless it is one of the success codes.
    func check(_ code: Int32, _ function: String) throws {
        switch SQLiteResultCode(code).primary {
        case .ok, .row, .done: return
        default: throw Self.error(function: function, code: code, message: withSystemError(String(cString: sqlite3_errmsg(handle)), code: code))
        }
    }

    /// `message` plus the system's words when an I/O call failed and SQLite kept its errno:
    /// opening a library on a full disk fails creating the -shm file with only "disk I/O error"
    /// (SQLITE_IOERR_SHMSIZE), and the user must be told the disk is full.
    private func withSystemError(_ message: String, code: Int32) -> String {
        let os = sqlite3_system_errno(handle)
        guard os != 0, SQLiteResultCode(code).isSystemFailure else { return message }
        return message + " (" + String(cString: strerror(os)) + ")"
    }

    static func error(function: String, code: Int32, message: String) -> StoreError {
        let code = SQLiteResultCode(code)
        switch code.primary {
        case .busy, .locked: return .busy(function: function, message: message)
        default: return .sqlite(function: function, code: code, message: message)
        }
    }
}

/// A value to bind to a statement parameter.
enum SQLiteValue {
    case int(Int)
    case double(Double)
    case text(String)
    /// Text given as its UTF-8 bytes: a log body, bound without first becoming a `String` (a
    /// copy as big as the body, which for an import of a library with lyrics is tens of MB).
    case utf8(Data)
    case blob([UInt8])
    case null
}

/// A prepared statement of one `SQLiteConnection`; owned by the connection's cache.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// Unowned: the connection's cache owns its statements, and they never outlive it.
    private unowned let connection: SQLiteConnection

    fileprivate init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to parameters 1, 2, ….
    func bind(_ values: [SQLiteValue]) throws {
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .int(let v): rc = sqlite3_bind_int64(handle, index, Int64(v))
            case .double(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, csqlite3_transient())
            case .utf8(let v):
                rc = v.withUnsafeBytes { raw in
                    guard let bytes = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else {
                        return sqlite3_bind_text(handle, index, "", 0, csqlite3_transient())
                    }
                    return sqlite3_bind_text64(handle, index, bytes, UInt64(raw.count), csqlite3_transient(), UInt8(SQLITE_UTF8))
                }
            case .blob(let v):
                rc = v.withUnsafeBytes { raw in
                    // A zero-length blob with a nil pointer would bind NULL; bind an empty one instead.
                    raw.baseAddress == nil
                        ? sqlite3_bind_zeroblob(handle, index, 0)
                        : sqlite3_bind_blob64(handle, index, raw.baseAddress, UInt64(raw.count), csqlite3_transient())
                }
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            try connection.check(rc, "sqlite3_bind")
        }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        try connection.check(rc, "sqlite3_step")
        return false
    }

    /// Runs a statement that returns no rows, then resets it.
    func run(_ values: SQLiteValue...) throws {
        try bind(values)
        defer { reset() }
        _ = try step()
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }

    /// The column's bytes, valid only inside `body` (SQLite owns them until the next step).
    func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        // Ask for the pointer before the size, as SQLite's documentation recommends.
        let p = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : count))
    }

    func bytes(_ column: Int32) -> [UInt8] { withBytes(column) { [UInt8]($0) } }

    /// How many columns a row of this statement has, and their names (for reading a table
    /// whose columns another program chose, as `ReadOnlyDatabase` does).
    var columnCount: Int32 { sqlite3_column_count(handle) }
    func columnName(_ column: Int32) -> String { sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "" }
    /// The storage class of the column's value in the current row (`SQLITE_INTEGER`, …).
    func columnType(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }
}
