import Glibc

/// A regular file mapped read-only into memory (`mmap`, `PROT_READ`, `MAP_SHARED`), unmapped
/// when the last reference goes: a snapshot image read where it lies, as page cache shared
/// between processes rather than a private copy.
///
/// The mapping shows the file's inode as it was opened: renaming another file over the name
/// leaves it intact, which is why Boomic replaces a mapped file only by `rename`, never by
/// writing it in place (`AtomicFile`). Truncating the mapped inode itself would make a read past
/// the new end a `SIGBUS`; the size is taken from `fstat` of the open descriptor, and the caller
/// checks it against what the bytes say of themselves before reading any further.
///
/// ```swift
/// let image = try MappedFile(path: folder + "/library.image")
/// let header = image.bytes.prefix(72)
/// ```
///
/// Sendable: the address and length are set once in `init` and the memory is read-only; the
/// mapping is released only in `deinit`, when nothing refers to it.
public final class MappedFile: Sendable {
    /// The path it was opened by, for messages.
    public let path: String
    /// The mapping's start, as an integer (a pointer is not `Sendable`).
    private let address: UInt
    /// Its length in bytes: the file's size when it was mapped; never 0.
    public let count: Int

    /// Opens `path` read-only and maps it whole. Refuses a file that is not regular (a FIFO, a
    /// device, a folder: `SystemError.Refusal.notRegularFile`) or is empty (EINVAL: nothing to
    /// map), and reports `open`, `fstat` or `mmap` failing as a `SystemError` naming `path`.
    public init(path: String) throws(SystemError) {
        let file = try FileDescriptor.openRegular(path)
        defer { try? file.close() }
        let size = Int(try file.status().st_size)
        guard size > 0 else { throw SystemError(.map, path: path, errno: EINVAL, refusal: .empty) }
        guard let p = mmap(nil, size, PROT_READ, MAP_SHARED, file.rawValue, 0), p != MAP_FAILED else {
            throw SystemError(.map, path: path, errno: errno)
        }
        self.path = path
        address = UInt(bitPattern: p)
        count = size
    }

    deinit {
        _ = munmap(UnsafeMutableRawPointer(bitPattern: address), count)
    }

    /// The mapped bytes; valid for as long as this value is referenced.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
    }
}
