import Foundation

/// A file a command writes its output to (`export -o FILE`, `playlist export NAME FILE`), whole or
/// not at all, with every write, flush and close checked: a full disk is an error, never a file
/// cut short behind a success message.
///
/// A regular file (or a new one) is written as a temporary file beside it, flushed to disk and
/// renamed over it, so a failure or a crash leaves the old file as it was. Anything else that
/// exists at the path — a device, a FIFO, a terminal (`/dev/stdout`, `/dev/full`) — is written in
/// place: renaming over it would replace a device node with a plain file.
final class OutputFile {
    let path: String
    private var fd: Int32
    private var temporary: String?

    init(_ path: String) throws {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            temporary = nil
            fd = open(path, O_WRONLY | O_CLOEXEC)
        } else {
            let tmp = path + ".tmp"
            temporary = tmp
            fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        }
        guard fd >= 0 else { throw Self.error(path, errno, "check that the folder exists and is writable") }
    }

    deinit { discard() }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            var off = 0
            while off < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + off, buffer.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    let code = errno
                    discard()
                    throw Self.error(path, code, "nothing was written")
                }
                off += n
            }
        }
    }

    func write(_ text: String) throws { try write(Data(text.utf8)) }

    /// Flushes to disk, closes and puts the file in place; until then the old file stands.
    func commit() throws {
        let code: Int32? = {
            if temporary != nil, fsync(fd) != 0 { return errno }
            let closed = close(fd)
            fd = -1
            return closed != 0 && errno != EINTR ? errno : nil
        }()
        if let code { discard(); throw Self.error(path, code, "nothing was written") }
        if let temporary {
            guard rename(temporary, path) == 0 else {
                let code = errno
                discard()
                throw Self.error(path, code, "nothing was written")
            }
            self.temporary = nil
        }
    }

    /// Closes and removes the temporary file: a half-written export must not be left where the
    /// next import-json could take it.
    func discard() {
        if fd >= 0 { close(fd); fd = -1 }
        if let temporary { unlink(temporary) }
    }

    private static func error(_ path: String, _ code: Int32, _ advice: String) -> CLIError {
        CLIError("cannot write \(path): \(String(cString: strerror(code))); \(advice)")
    }
}
