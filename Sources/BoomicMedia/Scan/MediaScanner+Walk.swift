import BoomicCore
import Foundation
import Glibc

/// The audio files found under some folders, and the folders that could not be listed.
public struct Walk: Hashable, Sendable {
    /// Every audio file, depth first, each folder's entries in byte order of their names.
    public var files: [ListedFile]
    /// Folders that could not be read. Their files are absent from `files`, which a rescan must
    /// not mistake for deletions.
    public var failures: [MediaError]

    public init(files: [ListedFile] = [], failures: [MediaError] = []) {
        self.files = files
        self.failures = failures
    }
}

extension MediaScanner {
    /// Lists the audio files under `roots` (folders, or single files) with their size and mtime.
    ///
    /// Follows symbolic links (a folder reached twice is listed once), skips hidden entries (a
    /// leading dot: `.git`, macOS `._x.flac` resource forks) and never opens a file. Uses
    /// `openat`/`readdir`/`fstatat` and the directory entry types, so only audio files are
    /// stat'ed: this is the whole cost of a rescan that finds nothing changed.
    /// Folders that cannot be read are reported in `Walk.failures`; the rest is still listed.
    public static func walk(_ roots: [String], options: Options = Options()) -> Walk {
        var walker = Walker(extensions: options.extensions)
        for root in roots {
            walker.walkRoot(absolutePath(root))
        }
        return Walk(files: walker.files, failures: walker.failures)
    }

    /// Like `walk`, but throws the first folder that cannot be read: a rescan must not take the
    /// files of an unreadable folder for deleted ones.
    public static func list(roots: [String], options: Options = Options()) throws(MediaError) -> [ListedFile] {
        let walk = walk(roots, options: options)
        if let failure = walk.failures.first { throw failure }
        return walk.files
    }

    /// `path` made absolute against the current directory, with `.`/`..` and repeated or
    /// trailing slashes removed.
    static func absolutePath(_ path: String) -> String {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardized.isEmpty ? "/" : standardized
    }
}

/// The state of one walk: results so far and the folders already seen.
private struct Walker {
    /// Lower-case extensions as bytes, so entries are matched without building Strings.
    let extensions: Set<[UInt8]>
    var files: [ListedFile] = []
    var failures: [MediaError] = []
    /// (device, inode) of every folder entered, so symlink loops and overlapping roots end.
    var seen: Set<FolderID> = []

    struct FolderID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Deep trees beyond this are almost surely a loop the inode check missed.
    static let maxDepth = 128

    init(extensions: Set<String>) {
        self.extensions = Set(extensions.map { Array($0.lowercased().utf8) })
    }

    mutating func walkRoot(_ root: String) {
        var st = stat()
        guard stat(root, &st) == 0 else {
            failures.append(.unreadableFolder(path: root, reason: systemErrorText(errno)))
            return
        }
        let rootBytes = Array(root.utf8)
        if isDirectory(st) {
            let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                failures.append(.unreadableFolder(path: root, reason: systemErrorText(errno)))
                return
            }
            walkFolder(fd: fd, path: rootBytes == [0x2F] ? [] : rootBytes, depth: 0)
        } else if isRegular(st), let name = rootBytes.split(separator: 0x2F).last, isAudio(name) {
            files.append(fileStat(path: rootBytes, st))
        }
    }

    /// Lists the folder open at `fd` (which this closes) whose path is `path`.
    private mutating func walkFolder(fd: Int32, path: [UInt8], depth: Int) {
        var st = stat()
        guard fstat(fd, &st) == 0,
              seen.insert(FolderID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))).inserted,
              depth <= Self.maxDepth else {
            close(fd)
            return
        }
        guard let dir = fdopendir(fd) else {
            failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                              reason: systemErrorText(errno)))
            close(fd)
            return
        }
        defer { closedir(dir) } // also closes fd

        var entries: [(name: [UInt8], type: UInt8)] = []
        errno = 0
        while let entry = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw[..<(raw.firstIndex(of: 0) ?? raw.count)])
            }
            // Hidden entries, "." and "..".
            if name.first == 0x2E { continue }
            entries.append((name, entry.pointee.d_type))
        }
        if errno != 0 {
            failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                              reason: systemErrorText(errno)))
        }
        entries.sort { $0.name.lexicographicallyPrecedes($1.name) }

        for (name, type) in entries {
            var childPath = path
            childPath.append(0x2F)
            childPath.append(contentsOf: name)
            switch Int(type) {
            case Int(DT_REG):
                guard isAudio(name[...]) else { continue }
                addFile(dirfd: fd, name: name, path: childPath)
            case Int(DT_DIR):
                enter(dirfd: fd, name: name, path: childPath, depth: depth)
            default:
                // A symbolic link or a file system without d_type: ask stat what it points to.
                var st = stat()
                guard withCName(name, { fstatat(fd, $0, &st, 0) }) == 0 else { continue } // dangling link
                if isDirectory(st) {
                    enter(dirfd: fd, name: name, path: childPath, depth: depth)
                } else if isRegular(st), isAudio(name[...]) {
                    files.append(fileStat(path: childPath, st))
                }
            }
        }
    }

    private mutating func enter(dirfd: Int32, name: [UInt8], path: [UInt8], depth: Int) {
        let child = withCName(name) { openat(dirfd, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard child >= 0 else {
            failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                              reason: systemErrorText(errno)))
            return
        }
        walkFolder(fd: child, path: path, depth: depth + 1)
    }

    private mutating func addFile(dirfd: Int32, name: [UInt8], path: [UInt8]) {
        var st = stat()
        guard withCName(name, { fstatat(dirfd, $0, &st, 0) }) == 0, isRegular(st) else { return }
        files.append(fileStat(path: path, st))
    }

    private func fileStat(path: [UInt8], _ st: stat) -> ListedFile {
        ListedFile(path: String(decoding: path, as: UTF8.self), size: Int(st.st_size),
                 mtime: Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec))
    }

    /// Whether `name` ends in one of the extensions, ignoring ASCII case.
    private func isAudio(_ name: ArraySlice<UInt8>) -> Bool {
        guard let dot = name.lastIndex(of: 0x2E), dot > name.startIndex else { return false }
        let ext = name[(dot + 1)...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return extensions.contains(ext)
    }

    /// Calls `body` with `name` as a NUL-terminated C string.
    private func withCName<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var z = name
        z.append(0)
        return z.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    private func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }
    private func isRegular(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFREG }
}
