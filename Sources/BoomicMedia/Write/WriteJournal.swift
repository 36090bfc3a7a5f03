import BoomicCore
import BoomicSystem
import Foundation
import Glibc
import Synchronization

/// Boomic's own renames that the library has not recorded yet: a small file in the library
/// folder, one JSON line per file, appended and flushed to disk just before each rename.
///
/// Why: a `write` renames its copies over the files one by one and records their new size, mtime
/// and fingerprint in one transaction at the end. Killed in between, the renamed files look
/// changed on disk, and the `import` a user then runs would take their tags (an older state of
/// the library) over any edit made since. With the journal, the next `write` or `import` sees
/// that a file still has exactly the size, mtime and audio of Boomic's copy and records it as
/// Boomic's write instead (`TagWriting.recoverInterrupted`), then clears the journal.
///
/// A kill at any point is safe: before the line is flushed, nothing was renamed; between the
/// flush and the rename the file keeps its old stamp, so the line matches nothing; after the
/// commit the song already has the stamp, so the line is a no-op. A torn last line is ignored.
public struct WriteJournal: Sendable {
    /// One file about to be renamed: the song and what its file will be after the rename.
    public struct Entry: Codable, Hashable, Sendable {
        public var song: SongID
        public var path: String
        public var size: Int
        public var mtime: Int
        /// The audio fingerprint of the copy (the original's: a write never changes audio).
        public var fingerprint: String?

        public init(song: SongID, path: String, stamp: FileStamp, fingerprint: String?) {
            self.song = song
            self.path = path
            self.size = stamp.size
            self.mtime = stamp.mtime
            self.fingerprint = fingerprint
        }

        public var stamp: FileStamp { FileStamp(size: size, mtime: mtime) }
    }

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The journal of the library at `location`.
    public init(library location: String) {
        self.init(path: location + "/write-journal")
    }

    /// Appends `entry` and flushes it (and, the first time, the folder) to disk.
    public func append(_ entry: Entry) throws(MediaError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(entry) else {
            throw .unwritable(path: entry.path, reason: "cannot encode the write journal's entry")
        }
        let line = Array(json) + [0x0A]
        let existed = access(path, F_OK) == 0
        do {
            let file = try FileDescriptor(path: path, flags: O_WRONLY | O_CREAT | O_APPEND)
            try file.write(line)
            try file.sync()
            try file.close()
        } catch {
            throw failure(entry, error)
        }
        if !existed { Self.syncFolder(of: path) }
    }

    /// The entries, oldest first; lines that do not decode (a line torn by a kill) are skipped.
    public func entries() -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(Entry.self, from: Data($0)) }
    }

    /// Forgets every entry (after they were recorded in the library, or found not to apply).
    public func clear() {
        guard (try? SystemCall.unlink(path)) != nil else { return }
        Self.syncFolder(of: path)
    }

    private func failure(_ entry: Entry, _ error: SystemError) -> MediaError {
        .unwritable(path: entry.path, reason: "cannot note the write in \(path) (\(error.reason)); left as it was")
    }

    /// Best effort: the line itself is on disk; only whether the file's name survives a power
    /// cut is at stake, and a journal lost with it only means a foreign change is reported.
    private static func syncFolder(of path: String) {
        try? SystemCall.syncDirectory(MediaScanner.folder(of: path))
    }
}

/// Deterministic kill points for crash tests, honoured only in debug builds:
/// `BOOMIC_TEST_EXIT_AT=renamed:2` ends the process with `_exit(86)` (no cleanup, as `kill -9`
/// would) the second time it reaches `renamed`. Release builds ignore the variable.
public enum CrashPoint: String, Sendable {
    /// A file's journal line is on disk, its copy not yet renamed.
    case journaled
    /// A copy was renamed over its file.
    case renamed
    /// The `write` transaction is committed, the journal not yet cleared.
    case recorded

    public func reached() {
        #if DEBUG
        guard let spec = Environment.value("BOOMIC_TEST_EXIT_AT") else { return }
        let parts = spec.split(separator: ":")
        guard parts.first.map(String.init) == rawValue else { return }
        let target = parts.count > 1 ? Int(parts[1]) ?? 1 : 1
        let count = Self.counts.withLock { c in
            c[rawValue, default: 0] += 1
            return c[rawValue]!
        }
        if count == target { _exit(86) }
        #endif
    }

    #if DEBUG
    private static let counts = Mutex<[String: Int]>([:])
    #endif
}
