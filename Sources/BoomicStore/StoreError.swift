import Foundation

/// Everything that can go wrong in the log store, with the context a user needs to act on it.
///
/// Every case prints as one sentence that says what went wrong and what to do, because the CLI
/// shows `errorDescription` as is (STYLE "Errors"). SQLite failures name the C function and quote
/// `sqlite3_errmsg`, the way GRDB's `DatabaseError` does, so a bug report carries the cause.
public enum StoreError: Error, Equatable, Sendable {
    /// `sqlite3_open_v2` failed: the folder is missing, unreadable or not writable.
    case cannotOpen(path: String, code: SQLiteResultCode, message: String)
    /// Another process held SQLite's write lock for longer than the busy timeout (SQLITE_BUSY).
    case busy(function: String, message: String)
    /// Any other SQLite failure, from the named C function.
    case sqlite(function: String, code: SQLiteResultCode, message: String)
    /// The library can only be read: its folder or `library.sqlite` is not writable for this
    /// user (`path` is the one that is not, `reason` the system's words).
    case readOnlyLibrary(path: String, reason: String)
    /// The library's folder is not writable and its `-wal` file holds transactions, which
    /// SQLite cannot read without writing beside it.
    case unreadableWithoutWriting(path: String, reason: String)
    /// The file is an SQLite database, but not a Boomic library (foreign tables or application id).
    case notALibrary(path: String)
    /// The file is not an SQLite database at all: another kind of file, or a library damaged
    /// past SQLite's reading (its first page).
    case notADatabase(path: String)
    /// The file was written by a newer Boomic whose log format this build does not understand.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The log contradicts itself (missing rows, a checkpoint past its end, no tables): the file
    /// was truncated or edited. `reason` says what was seen.
    case damagedLog(path: String, reason: String)
    /// A log row's body does not match its checksum: the file was damaged or edited by hand.
    case corrupt(seq: Int, reason: String)
    /// A log row is intact but its body is not a transaction this build can read.
    case undecodable(seq: Int, reason: String)
    /// A transaction could not be turned into JSON (for example a non-finite number).
    case unencodable(reason: String)
    /// A transaction's JSON could not be read back, so it was not committed (a bug in its Codable).
    case unreadableAfterEncoding(reason: String)
    /// A transaction with this id is already in the log.
    case duplicateID(String)
    /// No transaction has this sequence number.
    case noSuchSeq(Int, head: Int)
    /// An id prefix that is not lowercase hexadecimal (with dashes).
    case invalidIDPrefix(String)
    /// More than one transaction id starts with the prefix.
    case ambiguousIDPrefix(String, matches: [String])
    /// Encoded checkpoint or song data is truncated or malformed.
    case badEncoding(String)
    /// `appendAll(_:expectedHead:)` found the log at another head than the caller checked:
    /// another process committed in between. Nothing was appended.
    case headMoved(expected: Int, found: Int)
}

extension StoreError: LocalizedError {
    /// The way out of a damaged log, the same from every error that finds one.
    static let salvageAdvice = "Restore library.sqlite from a backup (`boomic backup`), or run `boomic verify` "
        + "to see what is lost and `boomic export --salvage -o FILE` to save what is readable."

    public var errorDescription: String? {
        switch self {
        case let .cannotOpen(path, code, message):
            return "Cannot open the library database at \(path) (sqlite3_open_v2: \(message), code \(code)); "
                + "check that the folder exists and that you may write to it."
        case let .busy(function, message):
            return "Another boomic process kept the library locked for too long (\(function): \(message)); "
                + "wait for it to finish and try again."
        case let .sqlite(function, code, message) where code.is(.ioError) || code.is(.full):
            // Almost always the disk (full, a file size limit, a failing device), not Boomic;
            // SQLite rolled the change back.
            return "The library database could not be written (\(function): \(message), code \(code)); "
                + "check that the disk is not full and no file size limit (ulimit -f) is set, then try again."
        case let .sqlite(function, code, message) where code.is(.corrupt):
            return "The library database is damaged (\(function): \(message), code \(code)); "
                + Self.salvageAdvice
        case let .sqlite(function, code, message) where code.is(.readOnly) || code.is(.permission):
            return "The library database cannot be written (\(function): \(message), code \(code)); "
                + "check that you may write to the library folder and its library.sqlite files."
        case let .sqlite(function, code, message):
            return "The library database failed (\(function): \(message), code \(code)); "
                + "run `boomic verify`, and report a bug if it persists."
        case let .readOnlyLibrary(path, reason):
            return "You may not write to \(path) (\(reason)), so this library can only be read; "
                + "ask its owner for write permission, or work on a copy made with `boomic backup`."
        case let .unreadableWithoutWriting(path, reason):
            return "You may not write to \(path) (\(reason)), and its library.sqlite-wal holds transactions that "
                + "SQLite can only read by writing beside it; ask its owner to run any boomic command in it once."
        case let .notALibrary(path):
            return "\(path) is an SQLite database but not a Boomic library; "
                + "point --library at a Boomic library folder or an empty one."
        case let .notADatabase(path):
            return "\(path) is not an SQLite database, so not a Boomic library: another kind of file, or a library "
                + "damaged past reading (restore it from a backup); point --library at a Boomic library folder or an empty one."
        case let .newerSchema(path, found, supported):
            return "The library at \(path) uses log format \(found) but this boomic understands only up to "
                + "\(supported); upgrade boomic to open it."
        case let .damagedLog(path, reason):
            return "The log in \(path) is damaged: \(reason); nothing was changed. " + Self.salvageAdvice
        case let .corrupt(seq, reason):
            return "Transaction \(seq) in the log is damaged (\(reason)); " + Self.salvageAdvice
        case let .undecodable(seq, reason):
            return "Transaction \(seq) in the log cannot be read by this boomic (\(reason)); "
                + "it may come from a newer version, so upgrade boomic."
        case let .unencodable(reason):
            return "The change could not be written to the log (\(reason)); nothing was committed, "
                + "please report this as a bug."
        case let .unreadableAfterEncoding(reason):
            return "The change was not committed because its log entry could not be read back (\(reason)); "
                + "please report this as a bug."
        case let .duplicateID(id):
            return "A transaction with id \(id) is already in the log; nothing was committed."
        case let .noSuchSeq(seq, head):
            return head == 0
                ? "There is no transaction \(seq): the log is empty."
                : "There is no transaction \(seq); the log holds 1 to \(head)."
        case let .invalidIDPrefix(prefix):
            return "\"\(prefix)\" is not a transaction id or id prefix; use hexadecimal digits as "
                + "`boomic history` shows them."
        case let .ambiguousIDPrefix(prefix, matches):
            return "The id prefix \(prefix) matches several transactions (\(matches.joined(separator: ", "))); "
                + "type more of the id."
        case let .badEncoding(reason):
            return "Stored data is truncated or malformed (\(reason)); run `boomic verify` to rebuild it."
        case let .headMoved(expected, found):
            return "The log has \(found) transaction\(found == 1 ? "" : "s") where \(expected) \(expected == 1 ? "was" : "were") "
                + "expected: another boomic process committed meanwhile; nothing was appended."
        }
    }
}
