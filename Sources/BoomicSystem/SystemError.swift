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
        /// `fchmod`.
        case chmod
        /// `mmap` (`MappedFile`).
        case map
    }

    /// Why Boomic itself refused a file that the system would have let it read
    /// (`FileDescriptor.openRegular`).
    public enum Refusal: Hashable, Sendable {
        /// A FIFO, a device, a socket or a folder where a regular file was to be read (errno
        /// EISDIR for a folder, EINVAL for the others).
        case notRegularFile
        /// The file resolves (through a link) outside the folders it must lie in (errno EXDEV).
        case outsideFolders
        /// An empty file where one with content was to be mapped (errno EINVAL).
        case empty
    }

    public var operation: Operation
    /// The file the call was about (the source of a rename or link; a description such as
    /// "standard output" for a descriptor that has no path).
    public var path: String
    /// The second path of a rename or link: the name created.
    public var destination: String?
    /// The `errno` the call failed with.
    public var errno: Int32
    /// Set when Boomic refused the file, not the system (`errno` is then the nearest number).
    public var refusal: Refusal?

    public init(_ operation: Operation, path: String, destination: String? = nil, errno: Int32, refusal: Refusal? = nil) {
        self.operation = operation
        self.path = path
        self.destination = destination
        self.errno = errno
        self.refusal = refusal
    }

    /// The system's words for `errno` (`strerror`), or Boomic's for a refusal; for messages
    /// only: never decide on them.
    public var reason: String {
        switch refusal {
        case .notRegularFile: "it is not a regular file (a FIFO, a device, a socket or a folder)"
        case .outsideFolders: "it lies outside the folders it may be read from"
        case .empty: "it is empty"
        case nil: String(cString: strerror(errno))
        }
    }

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
    /// Not a regular file, or outside the folders it must lie in: refused by Boomic.
    public var isRefused: Bool { refusal != nil }
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
        case .chmod: what = "change the permissions of \(path)"
        case .map: what = "map \(path) into memory"
        }
        return "cannot \(what): \(reason)"
    }
}

extension SystemError: LocalizedError {
    public var errorDescription: String? { description }
}
