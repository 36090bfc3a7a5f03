import Foundation
import Glibc
import Synchronization

/// An open file that Boomic owns: opened close-on-exec, closed exactly once (by `close()`,
/// which reports errors, else when the last reference goes).
///
/// Every call goes through `SystemCall`, so `EINTR` and short writes are handled and failures
/// throw a `SystemError` naming `path`.
///
/// ```swift
/// let file = try FileDescriptor(path: temp, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
/// try file.write(bytes)
/// try file.sync()
/// try file.close()
/// try SystemCall.rename(temp, to: path)
/// ```
///
/// Sendable because the descriptor number lives in an `Atomic` and every call on it is a
/// system call the kernel serialises; as with any descriptor, closing it while another thread
/// still uses it is a logic error (that call fails with EBADF, or reaches a file opened since).
public final class FileDescriptor: Sendable {
    /// The kinds of advisory `flock`.
    public enum Lock: Sendable {
        /// LOCK_SH: many holders, no exclusive one.
        case shared
        /// LOCK_EX: one holder.
        case exclusive
    }

    /// The path it was opened by, for messages.
    public let path: String
    private let handle: Atomic<Int32>

    /// Opens `path` with `flags` (O_CLOEXEC is always added: a child process such as an
    /// editor must not inherit the library's files or locks). `mode` applies when O_CREAT
    /// creates the file.
    public init(path: String, flags: Int32, mode: mode_t = 0o644) throws(SystemError) {
        let fd = SystemCall.retryingInterrupts { open(path, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError(.open, path: path, errno: errno) }
        self.path = path
        handle = Atomic(fd)
    }

    deinit {
        let fd = handle.load(ordering: .relaxed)
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// The descriptor, for calls the funnel does not offer (`fchown`, TagLib); -1 once closed.
    public var rawValue: Int32 { handle.load(ordering: .relaxed) }

    /// Closes it (once; later calls do nothing) and reports a failure: a file written through
    /// it is whole only if this succeeds. See `SystemCall.close` on why EINTR is not retried.
    public func close() throws(SystemError) {
        let fd = handle.exchange(-1, ordering: .relaxed)
        guard fd >= 0 else { return }
        try SystemCall.close(fd, path: path)
    }

    /// What `fstat` says about the open file.
    public func status() throws(SystemError) -> stat {
        try SystemCall.status(of: rawValue, path: path)
    }

    /// Reads once into `buffer`: the number of bytes read, 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try SystemCall.read(rawValue, into: buffer, path: path)
    }

    /// The rest of the file, up to its end. A file longer than `limit` bytes is refused with
    /// EFBIG (`isFileTooLarge`) rather than read into memory.
    public func readAll(limit: Int = .max) throws(SystemError) -> [UInt8] {
        let size = max(0, Int(try status().st_size))
        guard size <= limit else { throw SystemError(.read, path: path, errno: EFBIG) }
        // One more than the size, so that a file read whole sees its end in the same round.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(size + 1, 4096), 1 << 20), alignment: 16)
        defer { chunk.deallocate() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        while true {
            let n = try read(into: chunk)
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
            guard bytes.count <= limit else { throw SystemError(.read, path: path, errno: EFBIG) }
        }
    }

    /// Up to `count` bytes at `offset`, leaving the file position alone (`pread`): fewer only
    /// where the file ends.
    public func read(count: Int, at offset: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { b in
                SystemCall.retryingInterrupts { pread(rawValue, b.baseAddress! + done, b.count - done, off_t(offset + done)) }
            }
            guard n >= 0 else { throw SystemError(.read, path: path, errno: errno) }
            if n == 0 { break }
            done += n
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// Writes all of `buffer` (see `SystemCall.write(all:to:path:)`).
    public func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        try SystemCall.write(all: buffer, to: rawValue, path: path)
    }

    /// Writes all of `bytes` at `offset`, leaving the file position alone (`pwrite`): a header
    /// whose sizes are known only at the end (a WAV file's) is filled in this way.
    public func write(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { b in
                SystemCall.retryingInterrupts { pwrite(rawValue, b.baseAddress! + done, b.count - done, off_t(offset + done)) }
            }
            guard n >= 0 else { throw SystemError(.write, path: path, errno: errno) }
            guard n > 0 else { throw SystemError(.write, path: path, errno: EIO) }
            done += n
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: some ContiguousBytes) throws(SystemError) {
        // withUnsafeBytes only rethrows untyped errors, so carry the typed one out.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try write(buffer) }
        }
        try result.get()
    }

    /// Cuts the file to `size` bytes (`ftruncate`).
    public func truncate(to size: Int = 0) throws(SystemError) {
        guard SystemCall.retryingInterrupts({ ftruncate(rawValue, off_t(size)) }) == 0 else {
            throw SystemError(.write, path: path, errno: errno)
        }
    }

    /// Flushes the file's data and attributes to disk (`fsync`).
    public func sync() throws(SystemError) {
        try SystemCall.sync(rawValue, path: path)
    }

    /// Takes a `flock`, waiting for as long as another open file holds one in the way; a
    /// signal does not end the wait.
    public func lock(_ kind: Lock = .exclusive) throws(SystemError) {
        _ = try SystemCall.lock(rawValue, kind, waiting: true, path: path)
    }

    /// Takes a `flock` if it is free: false when another open file holds one in the way.
    public func tryLock(_ kind: Lock = .exclusive) throws(SystemError) -> Bool {
        try SystemCall.lock(rawValue, kind, waiting: false, path: path)
    }

    /// Releases the `flock` (closing releases it too).
    public func unlock() throws(SystemError) {
        try SystemCall.unlock(rawValue, path: path)
    }
}
