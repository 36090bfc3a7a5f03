import Foundation

/// What went wrong reading or writing a file on disk.
///
/// Every case names the file, and its description is one line, `<path>: <reason>`, so the CLI can
/// print a list of failures as they are.
public enum MediaError: Error, LocalizedError, Hashable, Sendable {
    /// The file could not be opened or TagLib could not read it as audio (empty, truncated,
    /// not audio at all, or an unsupported format).
    case unreadable(path: String, reason: String)
    /// A folder of the music tree could not be listed; its files were left out of the walk.
    case unreadableFolder(path: String, reason: String)
    /// Tags or pictures could not be written.
    case unwritable(path: String, reason: String)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .unreadableFolder(let path, _), .unwritable(let path, _):
            return path
        }
    }

    public var reason: String {
        switch self {
        case .unreadable(_, let reason), .unreadableFolder(_, let reason), .unwritable(_, let reason):
            return reason
        }
    }

    public var errorDescription: String? {
        // Reasons can quote file contents or strerror text; keep the promise of one line.
        let oneLine = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(path): \(oneLine)"
    }
}

/// `strerror(errno)` as Swift text.
func systemErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
