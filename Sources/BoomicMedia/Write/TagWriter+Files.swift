import BoomicCore
import BoomicSystem
import Glibc

/// The file-system steps of a write: checks, the hidden copy beside the file, fsync, rename.
///
/// The calls go through `BoomicSystem` (which retries on `EINTR` and finishes short writes);
/// here its failures become `MediaError.unwritable` naming the user's file (never the
/// temporary one).
extension TagWriter {
    /// The real file behind `path` (a symbolic link is followed: the link stays, its target is
    /// replaced) and what `stat` says about it.
    static func target(of path: String) throws(MediaError) -> (path: String, st: stat) {
        guard let real = SystemCall.realPath(path) else {
            throw .unreadable(path: path, reason: "cannot find the file (\(systemErrorText(errno)))")
        }
        let st: stat
        do {
            st = try SystemCall.status(of: real)
        } catch {
            throw .unreadable(path: path, reason: "cannot stat the file (\(error.reason))")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw .unwritable(path: path, reason: "not a regular file")
        }
        return (real, st)
    }

    static func stamp(_ st: stat) -> FileStamp {
        FileStamp(size: Int(st.st_size), mtime: Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec))
    }

    /// Refuses a file the user made read-only, or one in a read-only folder. The mode bits count
    /// even for root, who could write anyway: a write-protected file is a decision to respect.
    static func checkWritable(_ path: String, real: String, _ st: stat) throws(MediaError) {
        if st.st_mode & 0o222 == 0 || access(real, W_OK) != 0 {
            throw .unwritable(path: path, reason: "the file is read-only; make it writable (chmod u+w) to write its tags")
        }
        let folder = MediaScanner.folder(of: real)
        var dst = stat()
        if stat(folder, &dst) != 0 || dst.st_mode & 0o222 == 0 || access(folder, W_OK) != 0 {
            throw .unwritable(path: path, reason: "its folder is read-only; the tags are written into a copy beside the file, so the folder must be writable")
        }
        var fs = statvfs()
        if statvfs(folder, &fs) == 0, fs.f_flag & UInt(ST_RDONLY) != 0 {
            throw .unwritable(path: path, reason: "it is on a read-only file system")
        }
    }

    /// The hidden name of the copy: `.<name>.boomic-<pid>-<random>.tmp`, in the file's folder.
    /// Hidden, so scans skip it; `.tmp`, so no player takes it for audio; the pid tells a later
    /// run whether its writer is gone. Long names are cut so the whole stays under NAME_MAX.
    static func tempPath(for real: String) -> String {
        let folder = MediaScanner.folder(of: real)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "\(folder == "/" ? "" : folder)/\(tempPrefix(for: real))\(getpid())-\(random).tmp"
    }

    /// `.<name>.boomic-`, the part of a temporary name that only depends on the file.
    static func tempPrefix(for real: String) -> String {
        let name = Substring(real[(real.lastIndex(of: "/").map { real.index(after: $0) } ?? real.startIndex)...])
        var stem = name
        while stem.utf8.count > 200 { stem = stem.dropLast() }
        return ".\(stem).boomic-"
    }

    /// Removes those of `copies` (hidden copies a write made, found by a scan) whose writer is
    /// gone (its pid no longer runs): what a killed write left in the music folders, which no
    /// later write of the same file came to clear. A live writer's copies stay.
    public static func removeStrayCopies(_ copies: [String]) {
        for path in copies {
            let name = Substring(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
            guard let marker = name.range(of: ".boomic-", options: .backwards),
                  let pid = Int32(name[marker.upperBound...].prefix { $0 != "-" }),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? SystemCall.unlink(path)
        }
    }

    /// Removes copies of this file left by a writer that was killed (its pid no longer runs).
    static func removeStaleCopies(of real: String) {
        let folder = MediaScanner.folder(of: real)
        let prefix = tempPrefix(for: real)
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        var doomed: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw[..<(raw.firstIndex(of: 0) ?? raw.count)], as: UTF8.self)
            }
            guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { continue }
            let pid = name.dropFirst(prefix.count).prefix { $0 != "-" }
            if let p = Int32(pid), p != getpid(), kill(p, 0) != 0, errno == ESRCH { doomed.append(name) }
        }
        for name in doomed { try? SystemCall.unlink("\(folder == "/" ? "" : folder)/\(name)") }
    }

    /// Creates `temp` (mode 0600, never an existing file) holding the bytes of the open `source`.
    static func copy(from source: FileDescriptor, to temp: String, for path: String) throws(MediaError) -> FileDescriptor {
        let copy: FileDescriptor
        do {
            copy = try FileDescriptor(path: temp, flags: O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
        } catch {
            throw .unwritable(path: path, reason: "cannot create a copy beside it (\(error.reason))")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do {
                n = try source.read(into: buffer)
            } catch {
                discard(copy, temp)
                throw .unwritable(path: path, reason: "cannot read the file (\(error.reason))")
            }
            if n == 0 { return copy }
            do {
                try copy.write(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            } catch {
                discard(copy, temp)
                throw .unwritable(path: path, reason: "cannot write the copy (\(error.reason))")
            }
        }
    }

    /// Makes `copy` again what `source` holds, byte for byte: to start a write over.
    static func copyAgain(from source: FileDescriptor, into copy: FileDescriptor, for path: String) throws(MediaError) {
        do {
            try copyTail(of: source, from: 0, into: copy, at: 0)
        } catch {
            throw .unwritable(path: path, reason: "cannot write the copy (\(error.reason))")
        }
    }

    /// Makes `copy` hold, from `at` on, what `source` holds from `from` to its end, and end
    /// there: a copy made again, or a FLAC's audio moved after a metadata region that grew.
    static func copyTail(of source: FileDescriptor, from: Int, into copy: FileDescriptor, at: Int) throws(SystemError) {
        let size = Int(try source.status().st_size)
        var from = from, to = at
        while from < size {
            let chunk = try source.read(count: min(1 << 20, size - from), at: from)
            guard !chunk.isEmpty else { break }
            try copy.write(chunk, at: to)
            from += chunk.count
            to += chunk.count
        }
        try copy.truncate(to: to)
    }

    /// Gives the copy the original's owner, group and mode (owner first: chown clears set-id bits).
    static func keepOwnership(_ copy: FileDescriptor, like st: stat, for path: String) throws(MediaError) {
        guard fchown(copy.rawValue, st.st_uid, st.st_gid) == 0 else {
            throw .unwritable(path: path, reason: "the rewritten file could not keep its owner and group (\(systemErrorText(errno)))")
        }
        guard fchmod(copy.rawValue, st.st_mode & 0o7777) == 0 else {
            throw .unwritable(path: path, reason: "the rewritten file could not keep its mode (\(systemErrorText(errno)))")
        }
    }

    /// Gives the copy the original's extended attributes (`SystemCall.copyExtendedAttributes`):
    /// a desktop's tags and ratings, ACLs and security labels, which the rename would otherwise
    /// drop. A `user.` attribute that cannot be set stops the write, leaving the file as it was.
    static func keepExtendedAttributes(of original: String, on copy: FileDescriptor, for path: String) throws(MediaError) {
        if let failed = SystemCall.copyExtendedAttributes(of: original, to: copy.rawValue).first(where: { $0.name.hasPrefix("user.") }) {
            throw .unwritable(path: path, reason: "the rewritten file could not keep its attribute \(failed.name) (\(systemErrorText(failed.errno)))")
        }
    }

    static func sync(_ copy: FileDescriptor, for path: String) throws(MediaError) {
        do {
            try copy.sync()
        } catch {
            throw .unwritable(path: path, reason: "cannot flush the rewritten file to disk (\(error.reason))")
        }
    }

    /// Closes the finished copy: a delayed write error (NFS, a quota) shows only here.
    static func close(_ copy: FileDescriptor, for path: String) throws(MediaError) {
        do {
            try copy.close()
        } catch {
            throw .unwritable(path: path, reason: "cannot finish the rewritten copy (\(error.reason)); left as it was")
        }
    }

    /// Moves the copy over the original, then flushes the folder so the rename itself survives
    /// a power cut.
    static func replace(_ real: String, with temp: String, for path: String) throws(MediaError) {
        do {
            try SystemCall.rename(temp, to: real)
        } catch {
            throw .unwritable(path: path, reason: "cannot move the rewritten copy over it (\(error.reason))")
        }
        // Renamed already: only durability is at stake, and nothing is left to undo.
        try? SystemCall.syncDirectory(MediaScanner.folder(of: real))
    }

    /// Closes and deletes an unfinished copy.
    static func discard(_ copy: FileDescriptor, _ temp: String) {
        try? copy.close()
        try? SystemCall.unlink(temp)
    }
}
