import Foundation
import Glibc

/// A system call that failed: which one, on which path, and the `errno` it left.
///
/// Every call in `SystemCall` and `FileDescriptor` throws this and nothing else, so callers
/// decide by type and number (`isNoSpace`, `errno == EEXIST`), never by the words of
/// `strerror`, which depend on the C library and its locale. The description is one line in
/// the words a user reads: `cannot rename /music/a.tmp to /music/a.flac: No space left on device`.
public struct SystemError: Error, Hashable, Sendable {
    /// The system calls the funnel makes, named for the message.
    public enum Operation: String, Hashable, Sendable {
        case open, stat, read, write
        /// `fsync`, of a file or of a folder's entries.
        case sync
        case rename, link, unlink
        /// `flock`, taking or releasing.
        case lock
        case close
    }

    public var operation: Operation
    /// The file the call was about (the source of a rename or link; a description such as
    /// "standard output" for a descriptor that has no path).
    public var path: String
    /// The second path of a rename or link: the name created.
    public var destination: String?
    /// The `errno` the call failed with.
    public var errno: Int32

    public init(_ operation: Operation, path: String, destination: String? = nil, errno: Int32) {
        self.operation = operation
        self.path = path
        self.destination = destination
        self.errno = errno
    }

    /// The system's words for `errno` (`strerror`), for messages only: never decide on them.
    public var reason: String { String(cString: strerror(errno)) }

    // MARK: What went wrong, by number

    /// ENOENT: the file, or a folder on its path, does not exist.
    public var isNotFound: Bool { errno == ENOENT }
    /// EEXIST: the name to create is taken.
    public var isExisting: Bool { errno == EEXIST }
    /// EACCES or EPERM: this user may not do it.
    public var isPermission: Bool { errno == EACCES || errno == EPERM }
    /// EROFS: the file system is mounted read-only.
    public var isReadOnlyFileSystem: Bool { errno == EROFS }
    /// ENOSPC or EDQUOT: the disk (or this user's quota) is full.
    public var isNoSpace: Bool { errno == ENOSPC || errno == EDQUOT }
    /// EFBIG: the file would pass the process's file size limit (`ulimit -f`) or the file
    /// system's largest file.
    public var isFileTooLarge: Bool { errno == EFBIG }
    /// EPIPE: the reader of a pipe went away (`boomic ls | head`).
    public var isBrokenPipe: Bool { errno == EPIPE }
}

extension SystemError: CustomStringConvertible {
    public var description: String {
        let what: String
        switch operation {
        case .open: what = "open \(path)"
        case .stat: what = "read the attributes of \(path)"
        case .read: what = "read \(path)"
        case .write: what = "write \(path)"
        case .sync: what = "flush \(path) to disk"
        case .rename: what = "rename \(path) to \(destination ?? "?")"
        case .link: what = "link \(destination ?? "?") to \(path)"
        case .unlink: what = "delete \(path)"
        case .lock: what = "lock \(path)"
        case .close: what = "close \(path)"
        }
        return "cannot \(what): \(reason)"
    }
}

extension SystemError: LocalizedError {
    public var errorDescription: String? { description }
}
