import CSQLite3
import Foundation
import BoomicSystem
import Glibc

/// Another program's SQLite database (beets' library, MPD's sticker database), read and never
/// written: its tables are read row by row with the values as SQLite stores them.
///
/// Opened read-only (`SQLITE_OPEN_READONLY`, what a `mode=ro` URI asks), so the owner may keep
/// running and writing. SQLite would still create a `-wal` and a `-shm` file beside a database in
/// WAL mode that has none, and leave them: the file's folder is the user's, so such a database
/// (no writer, hence nothing in a WAL) is opened `immutable=1` instead, which creates nothing. A
/// database whose `-wal` exists is read with it, as SQLite reads it for any reader.
public final class ReadOnlyDatabase {
    private let connection: SQLiteConnection
    public let path: String

    /// Opens `path`; throws `ReadOnlyDatabaseError` when it is missing, unreadable or not SQLite.
    public init(path: String) throws(ReadOnlyDatabaseError) {
        self.path = path
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .cannotOpen(path: path, reason: "it is not a regular file") }
        let immutable = Self.isWALModeWithoutWAL(path)
        do {
            connection = try SQLiteConnection(path: path, readOnly: true, immutable: immutable, busyTimeoutMilliseconds: 5_000)
            // A file that is not SQLite opens fine: the first read says so.
            _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
        } catch {
            throw Self.error(error, path: path)
        }
    }

    deinit { connection.close() }

    /// Whether the header says WAL mode (bytes 18 and 19 are 2) while no `-wal` file exists.
    private static func isWALModeWithoutWAL(_ path: String) -> Bool {
        guard let fd = try? FileDescriptor.openRegular(path) else { return false }
        defer { try? fd.close() }
        guard let header = try? fd.read(count: 20, at: 0), header.count == 20, header[18] == 2, header[19] == 2
        else { return false }
        var st = stat()
        return stat(path + "-wal", &st) != 0
    }

    /// The names of the tables the database holds.
    public func tableNames() throws(ReadOnlyDatabaseError) -> Set<String> {
        var names = Set<String>()
        try forEachRow("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
            if case .text(let name) = row[0].value { names.insert(name) }
        }
        return names
    }

    /// One column's value in a row, by the column's name as the query gave it.
    public struct Column {
        public var name: String
        public var value: StoredValue
    }

    /// Runs `sql` and hands each row's columns to `body`, in the query's order.
    public func forEachRow(_ sql: String, _ body: ([Column]) throws -> Void) throws(ReadOnlyDatabaseError) {
        do {
            let stmt = try connection.statement(sql)
            defer { stmt.reset() }
            let count = stmt.columnCount
            let names = (0..<count).map(stmt.columnName)
            while try stmt.step() {
                var row: [Column] = []
                row.reserveCapacity(Int(count))
                for i in 0..<count {
                    let value: StoredValue
                    switch stmt.columnType(i) {
                    case SQLITE_INTEGER: value = .int(stmt.int(i))
                    case SQLITE_FLOAT: value = .real(stmt.double(i))
                    case SQLITE_TEXT: value = .text(stmt.text(i))
                    case SQLITE_BLOB: value = .blob(stmt.bytes(i))
                    default: value = .null
                    }
                    row.append(Column(name: names[Int(i)], value: value))
                }
                try body(row)
            }
        } catch let error as ReadOnlyDatabaseError {
            throw error
        } catch {
            throw Self.error(error, path: path)
        }
    }

    private static func error(_ error: any Error, path: String) -> ReadOnlyDatabaseError {
        if case .sqlite(_, let code, _)? = error as? StoreError, code.is(.notADatabase) { return .notADatabase(path: path) }
        if case .cannotOpen(_, _, let message)? = error as? StoreError { return .cannotOpen(path: path, reason: message) }
        if case .busy? = error as? StoreError { return .busy(path: path) }
        return .failed(path: path, reason: (error as? StoreError).map(Self.sqliteMessage) ?? "\(error)")
    }

    private static func sqliteMessage(_ e: StoreError) -> String {
        if case .sqlite(let function, let code, let message) = e { return "\(function): \(message), code \(code)" }
        return e.localizedDescription
    }
}
