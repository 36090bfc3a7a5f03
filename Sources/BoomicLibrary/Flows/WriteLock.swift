import Foundation

/// An exclusive `flock` on a file in the library folder, released when the process ends
/// (even by `kill -9`), so a dead writer never blocks the next one.
public final class WriteLock {
    private let fd: Int32

    public convenience init(path: String) throws {
        try self.init(path: path, waiting: true)!
    }

    /// Without `waiting`, nil when another process holds the lock.
    public init?(path: String, waiting: Bool) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LibraryError("cannot open \(path) (\(String(cString: strerror(errno)))); check that the library folder is writable")
        }
        while flock(fd, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            if !waiting && errno == EWOULDBLOCK {
                close(fd)
                return nil
            }
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw LibraryError("cannot lock \(path) (\(reason)); is another boomic write stuck?")
            }
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
