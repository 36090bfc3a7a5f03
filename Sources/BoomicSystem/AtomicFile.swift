import Foundation
import Glibc

/// Replaces a small file whole or not at all, and on disk before returning: written to a
/// temporary name beside it, synced, renamed over it, and the folder synced so the rename itself
/// survives a power cut. Readers see the old content or the new, never a mix or nothing.
///
/// The temporary name is fixed (`path.tmp`), so a crash leaves at most one leftover, which the
/// next write replaces; two processes that may write one `path` at once take turns by a lock of
/// their own.
public enum AtomicFile {
    /// - Parameter mode: the new file's permission bits exactly, whatever the umask (0600 for a
    ///   secret: set before the first byte is written); nil gives 0644 less the umask.
    public static func write(_ bytes: some ContiguousBytes, to path: String, mode: mode_t? = nil) throws(SystemError) {
        let tmp = path + ".tmp"
        do throws(SystemError) {
            let file = try FileDescriptor(path: tmp, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: mode ?? 0o644)
            if let mode { try file.setPermissions(mode) }
            try file.write(bytes)
            try file.sync()
            try file.close()
            try SystemCall.rename(tmp, to: path)
            try SystemCall.syncDirectory(directory(of: path))
        } catch {
            try? SystemCall.unlink(tmp)
            throw error
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
