import CFFmpeg
import Glibc

/// The audio file this program decodes, open as a regular file, read at offsets (`pread`) by
/// everything that reads it: FFmpeg (through `byteSource()`), the M4A and Musepack header
/// readers. The path names the file in messages and lends FFmpeg its extension as a hint; it is
/// never opened again, so what was checked is what is read.
///
/// The player opens the file itself (`FileDescriptor.openRegular`) and hands the descriptor down
/// (`--descriptor 3`). Run by hand with a path alone, the program opens it by the same rule:
/// O_NONBLOCK, so a FIFO does not wait for a writer, then `fstat` must say a regular file.
/// (This program links no Foundation, so not BoomicSystem, which does.)
final class InputFile {
    let path: String
    let fd: Int32
    let size: Int64

    /// Takes `descriptor` (the player's) when given, else opens `path`.
    init(path: String, descriptor: Int32?) throws(InputError) {
        self.path = path
        var fd = descriptor ?? -1
        if descriptor == nil {
            fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError(reason: "cannot open: \(String(cString: strerror(errno)))") }
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw InputError(reason: "cannot open: \(reason)")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw InputError(reason: "cannot open: it is not a regular file (a FIFO, a device, a socket or a folder)")
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 && flags & O_NONBLOCK != 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        self.fd = fd
        size = Int64(st.st_size)
    }

    deinit { close(fd) }

    /// Up to `count` bytes at `offset` into `buffer`: fewer only at the end of the file; -1 on a
    /// read error.
    func read(at offset: Int64, count: Int, into buffer: UnsafeMutableRawPointer) -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return done > 0 ? done : -1 }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file or on a read error).
    func bytes(at offset: Int64, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { read(at: offset, count: count, into: $0.baseAddress!) }
        bytes.removeLast(count - max(0, n))
        return bytes
    }
}
