import Foundation
import Glibc
import Synchronization

/// Replaces a file whole or not at all, and on disk before returning: written to a temporary
/// name beside it, synced, renamed over it, and the folder synced so the rename itself survives
/// a power cut. Readers see the old content or the new, never a mix or nothing, and a reader
/// that has the old file open or mapped keeps reading the old file intact: the file is never
/// rewritten in place.
///
/// `write` uses a fixed temporary name (`path.tmp`), so a crash leaves at most one leftover,
/// which the next write replaces; two processes that may write one `path` at once take turns by
/// a lock of their own. `writeUnique` names each write's temporary file for its process and
/// write (`path.tmp-<pid>-<n>`), so processes that replace one file without a lock (a snapshot
/// image) never write into each other's; `removeLeftovers` deletes those a killed process left.
public enum AtomicFile {
    /// - Parameter mode: the new file's permission bits exactly, whatever the umask (0600 for a
    ///   secret: set before the first byte is written); nil gives 0644 less the umask.
    public static func write(_ bytes: some ContiguousBytes, to path: String, mode: mode_t? = nil) throws(SystemError) {
        try write(bytes, to: path, through: path + ".tmp", flags: O_TRUNC, mode: mode)
    }

    /// `write` through a temporary name no other write uses, created afresh (`O_EXCL`).
    public static func writeUnique(_ bytes: some ContiguousBytes, to path: String, mode: mode_t? = nil) throws(SystemError) {
        let n = counter.add(1, ordering: .relaxed).oldValue
        try write(bytes, to: path, through: "\(path).tmp-\(getpid())-\(n)", flags: O_EXCL, mode: mode)
    }

    /// Deletes the temporary files of `writeUnique` to `path` whose process is gone (killed while
    /// writing); those of live processes are theirs to rename. Best effort: returns how many went.
    /// A writer in another PID namespace may look gone; its rename then fails and its write with
    /// it, which for a cache only costs the next writer the same work.
    @discardableResult
    public static func removeLeftovers(of path: String) -> Int {
        let folder = directory(of: path)
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }) else { continue }
            // kill(pid, 0): 0 or EPERM when the process exists (a pid reused since only delays this).
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            if (try? SystemCall.unlink(folder + "/" + name)) != nil { removed += 1 }
        }
        return removed
    }

    private static let counter = Atomic<Int>(0)

    private static func write(_ bytes: some ContiguousBytes, to path: String, through tmp: String,
                              flags: Int32, mode: mode_t?) throws(SystemError) {
        do throws(SystemError) {
            let file = try FileDescriptor(path: tmp, flags: O_WRONLY | O_CREAT | flags, mode: mode ?? 0o644)
            if let mode { try file.setPermissions(mode) }
            try file.write(bytes)
            try file.sync()
            try file.close()
            try SystemCall.rename(tmp, to: path)
            try SystemCall.syncDirectory(directory(of: path))
        } catch {
            // Never one written by someone else: O_EXCL failing on a taken name is EEXIST.
            if !error.isExisting { try? SystemCall.unlink(tmp) }
            throw error
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
