import BoomicSystem
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
    private let file: FileDescriptor
    private var temporary: String?

    init(_ path: String) throws {
        self.path = path
        do {
            if let info = try? SystemCall.status(of: path), info.st_mode & S_IFMT != S_IFREG {
                temporary = nil
                file = try FileDescriptor(path: path, flags: O_WRONLY)
            } else {
                let tmp = path + ".tmp"
                temporary = tmp
                file = try FileDescriptor(path: tmp, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o666)
            }
        } catch {
            throw Self.error(path, error, "check that the folder exists and is writable")
        }
    }

    deinit { discard() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try file.write(bytes)
        } catch {
            discard()
            throw Self.error(path, error, "nothing was written")
        }
    }

    func write(_ data: Data) throws { try data.withUnsafeBytes { try write($0) } }

    func write(_ text: String) throws { try write(Data(text.utf8)) }

    /// Flushes to disk, closes and puts the file in place; until then the old file stands.
    func commit() throws {
        do {
            if temporary != nil { try file.sync() }
            try file.close()
            if let temporary {
                try SystemCall.rename(temporary, to: path)
                self.temporary = nil
            }
        } catch {
            discard()
            throw Self.error(path, error, "nothing was written")
        }
    }

    /// Closes and removes the temporary file: a half-written export must not be left where the
    /// next import-json could take it.
    func discard() {
        try? file.close()
        if let temporary { try? SystemCall.unlink(temporary) }
    }

    private static func error(_ path: String, _ error: SystemError, _ advice: String) -> CLIError {
        CLIError("cannot write \(path): \(error.reason); \(advice)")
    }
}
