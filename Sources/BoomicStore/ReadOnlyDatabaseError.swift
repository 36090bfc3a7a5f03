import Foundation

/// Why another program's database could not be read (`ReadOnlyDatabase`): one sentence each,
/// naming the file, since it is the user's and not Boomic's library.
public enum ReadOnlyDatabaseError: Error, Equatable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case notADatabase(path: String)
    /// Its owner held a write lock longer than a reader waits.
    case busy(path: String)
    case failed(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotOpen(path, reason): "cannot open \(path): \(reason)"
        case let .notADatabase(path): "\(path) is not an SQLite database"
        case let .busy(path): "\(path) stayed locked by the program that writes it; try again when it is done"
        case let .failed(path, reason): "cannot read \(path): \(reason)"
        }
    }
}
