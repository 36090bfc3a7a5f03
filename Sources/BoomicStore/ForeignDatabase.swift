import Foundation

/// Another program's SQLite database, opened read-only: MPD's sticker file, which a running
/// `mpd` may be writing meanwhile (SQLite's locks keep each read consistent; nothing is ever
/// written, not even a `-journal`).
///
/// Its errors are `ForeignDatabase.Failure`, one line naming the file: a `StoreError` speaks
/// of the library.
public final class ForeignDatabase {
    /// Why the file could not be read: the path, the SQLite function and its words.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    public let path: String
    private let connection: SQLiteConnection

    /// Opens the database at `path` for reading; a missing file is an error, never created.
    public init(path: String) throws(Failure) {
        self.path = path
        do {
            // A few seconds for a writing mpd to let go of its lock; not the library's thirty.
            connection = try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: 5_000)
        } catch {
            throw Failure(path: path, message: Self.words(error))
        }
    }

    /// The names of a table's columns, empty when there is no such table. Reading the schema is
    /// also the first read: a file that is not an SQLite database fails here.
    public func columns(of table: String) throws(Failure) -> [String] {
        try rows("SELECT name FROM pragma_table_info('\(table.replacingOccurrences(of: "'", with: "''"))')").map { $0[0] ?? "" }
    }

    /// Every row of `sql`, each column as text (nil for NULL; a blob's bytes read as UTF-8).
    public func rows(_ sql: String) throws(Failure) -> [[String?]] {
        do {
            let stmt = try connection.statement(sql)
            defer { stmt.reset() }
            var out: [[String?]] = []
            let count = stmt.columnCount
            while try stmt.step() {
                out.append((0..<count).map { stmt.isNull($0) ? nil : stmt.text($0) })
            }
            return out
        } catch {
            throw Failure(path: path, message: Self.words(error))
        }
    }

    private static func words(_ error: any Error) -> String {
        switch error as? StoreError {
        case .cannotOpen(_, _, let message)?: "sqlite3_open_v2: \(message)"
        case .sqlite(let function, _, let message)?, .busy(let function, let message)?: "\(function): \(message)"
        default: "\(error)"
        }
    }
}
