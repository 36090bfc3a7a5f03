import CXattr
import Glibc

/// The one place Boomic makes the system calls that can be interrupted or cut short.
///
/// A signal whose handler was installed without `SA_RESTART` makes a blocking call fail with
/// `EINTR` (a waiting `flock`, a `write` to a full pipe, an `open` of a FIFO); a `write` may also
/// write less than it was given, and then the rest must follow. Each function here handles that
/// once, and turns every other failure into a `SystemError` naming the operation and the path.
/// `FileDescriptor` offers the same calls on a descriptor it owns; the functions taking a raw
/// descriptor serve those Boomic does not own, such as standard output.
///
/// ```swift
/// do {
///     try SystemCall.rename(temp, to: path)
/// } catch where error.isNoSpace {
///     …
/// }
/// ```
public enum SystemCall {
    /// The result of `call`, called again for as long as it fails with `EINTR`. On failure the
    /// result is -1 and `errno` is the call's.
    @inlinable
    public static func retryingInterrupts<R: FixedWidthInteger & SignedInteger>(_ call: () -> R) -> R {
        while true {
            let result = call()
            guard result == -1, errno == EINTR else { return result }
        }
    }

    // MARK: Paths

    /// What `stat` (or, not following a symbolic link at the end, `lstat`) says about `path`.
    public static func status(of path: String, followingLinks: Bool = true) throws(SystemError) -> stat {
        var st = stat()
        let result = retryingInterrupts { followingLinks ? stat(path, &st) : lstat(path, &st) }
        guard result == 0 else { throw SystemError(.stat, path: path, errno: errno) }
        return st
    }

    /// realpath(3): `path` with every symbolic link, `.` and `..` resolved; nil when it does not
    /// resolve (`errno` says why).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Sets on the open file `fd` every extended attribute `path` has, in every namespace
    /// (`user.`, `system.posix_acl_*`, `security.`, `trusted.`). Keeps going past one that cannot
    /// be set (a SELinux label or `trusted.*` needs privileges) and returns those, with their
    /// errno: none when all were set, or the file has none or lives where there are none.
    public static func copyExtendedAttributes(of path: String, to fd: Int32) -> [(name: String, errno: Int32)] {
        let size = listxattr(path, nil, 0)
        guard size > 0 else { return [] }
        var names = [CChar](repeating: 0, count: size)
        let listed = listxattr(path, &names, size)
        guard listed > 0 else { return [] }
        var failed: [(name: String, errno: Int32)] = []
        var start = 0
        while start < listed {
            let end = names[start..<listed].firstIndex(of: 0) ?? listed
            let name = String(decoding: names[start..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            start = end + 1
            let length = name.isEmpty ? -1 : getxattr(path, name, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(length, 1))
            let read = getxattr(path, name, &value, length)
            guard read >= 0 else { continue }
            if fsetxattr(fd, name, value, read, 0) != 0 { failed.append((name, errno)) }
        }
        return failed
    }

    /// Renames `source` to `destination`, atomically replacing a file there.
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        guard retryingInterrupts({ Glibc.rename(source, destination) }) == 0 else {
            throw SystemError(.rename, path: source, destination: destination, errno: errno)
        }
    }

    /// Makes `destination` a new name (hard link) of `source`; fails with EEXIST
    /// (`isExisting`) when `destination` exists, which makes it a rename that never replaces.
    public static func link(_ source: String, to destination: String) throws(SystemError) {
        guard retryingInterrupts({ Glibc.link(source, destination) }) == 0 else {
            throw SystemError(.link, path: source, destination: destination, errno: errno)
        }
    }

    /// Sets the permission bits of `path` (through a link, to its target) to exactly `mode`.
    public static func setPermissions(of path: String, to mode: mode_t) throws(SystemError) {
        guard retryingInterrupts({ chmod(path, mode) }) == 0 else {
            throw SystemError(.chmod, path: path, errno: errno)
        }
    }

    /// Removes the name `path`.
    public static func unlink(_ path: String) throws(SystemError) {
        guard retryingInterrupts({ Glibc.unlink(path) }) == 0 else {
            throw SystemError(.unlink, path: path, errno: errno)
        }
    }

    /// Flushes a folder's entries to disk, so that a file created, renamed or removed in it
    /// stays so after a power cut (fsync of the file itself covers only its contents).
    public static func syncDirectory(_ path: String) throws(SystemError) {
        let folder = try FileDescriptor(path: path, flags: O_RDONLY | O_DIRECTORY)
        try folder.sync()
        try folder.close()
    }

    // MARK: Descriptors

    /// Reads once into `buffer`: the number of bytes read, 0 at the end of the file.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer,
                            path: String) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let n = retryingInterrupts { Glibc.read(fd, base, buffer.count) }
        guard n >= 0 else { throw SystemError(.read, path: path, errno: errno) }
        return n
    }

    /// Writes all of `buffer`, however many calls it takes. A failure after part of it was
    /// written throws too: the caller must treat the file as cut short.
    public static func write(all buffer: UnsafeRawBufferPointer, to fd: Int32, path: String) throws(SystemError) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let n = retryingInterrupts { Glibc.write(fd, base + done, buffer.count - done) }
            guard n >= 0 else { throw SystemError(.write, path: path, errno: errno) }
            // write(2) returns 0 for a non-empty buffer only on a device that takes no more;
            // calling it again would spin.
            guard n > 0 else { throw SystemError(.write, path: path, errno: EIO) }
            done += n
        }
    }

    /// Flushes a file's data and attributes to disk (`fsync`).
    public static func sync(_ fd: Int32, path: String) throws(SystemError) {
        guard retryingInterrupts({ fsync(fd) }) == 0 else { throw SystemError(.sync, path: path, errno: errno) }
    }

    /// What `fstat` says about the open file.
    public static func status(of fd: Int32, path: String) throws(SystemError) -> stat {
        var st = stat()
        guard retryingInterrupts({ fstat(fd, &st) }) == 0 else { throw SystemError(.stat, path: path, errno: errno) }
        return st
    }

    /// Takes an advisory `flock` on the open file. Waiting, it returns only once the lock is
    /// held (a signal does not end the wait); not waiting, it returns false at once when
    /// another open file holds a lock in the way. Either way other failures throw.
    public static func lock(_ fd: Int32, _ kind: FileDescriptor.Lock, waiting: Bool,
                            path: String) throws(SystemError) -> Bool {
        let operation = (kind == .exclusive ? LOCK_EX : LOCK_SH) | (waiting ? 0 : LOCK_NB)
        guard retryingInterrupts({ flock(fd, operation) }) == 0 else {
            let code = errno
            if !waiting && code == EWOULDBLOCK { return false }
            throw SystemError(.lock, path: path, errno: code)
        }
        return true
    }

    /// Releases a `flock` (closing the last descriptor of the open file releases it too).
    public static func unlock(_ fd: Int32, path: String) throws(SystemError) {
        guard retryingInterrupts({ flock(fd, LOCK_UN) }) == 0 else {
            throw SystemError(.lock, path: path, errno: errno)
        }
    }

    /// Closes `fd` exactly once, and reports what the close reports (a delayed write error
    /// on NFS, a full quota), except EINTR.
    ///
    /// Never retried: Linux frees the descriptor before anything can interrupt `close`, even
    /// when it then returns EINTR (close(2), "Dealing with error returns"). Calling it again
    /// would fail with EBADF at best, and at worst close a file another thread has just been
    /// given under the same number. EINTR therefore means closed, and counts as success.
    public static func close(_ fd: Int32, path: String) throws(SystemError) {
        guard Glibc.close(fd) != 0 else { return }
        let code = errno
        guard code != EINTR else { return }
        throw SystemError(.close, path: path, errno: code)
    }
}
