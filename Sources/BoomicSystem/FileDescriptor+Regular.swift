import Glibc

extension FileDescriptor {
    /// Opens `path` read-only as a regular file, in a way that cannot block, and, with
    /// `folders`, only when the file lies inside them. Every reader of a file Boomic copies or
    /// sends (a cover, a playlist file, a sheet) and of an audio file comes through here.
    ///
    /// - The open has O_NONBLOCK (and O_NOCTTY): a FIFO opened for reading otherwise waits for
    ///   a writer, forever, and a terminal would become the process's. Then `fstat` on the
    ///   descriptor must say a regular file, so a FIFO, device, socket or folder is refused
    ///   (`SystemError.Refusal.notRegularFile`), including one swapped in after any earlier
    ///   check of the path: the caller reads through the descriptor returned, never the path
    ///   again. O_NONBLOCK is then cleared, as it means nothing to a regular file but a network
    ///   file system may still act on it.
    /// - With `folders`, the path's real path must lie in one of them, and name the very file
    ///   opened (same device and inode): a link leading out of the music folders (a `cover.jpg`
    ///   pointing at `/etc/shadow`) is refused (`.outsideFolders`), and so is one that a swap
    ///   between the check and the open made lead out. Without, links are followed anywhere, as
    ///   audio files are (MPD's `follow_outside_symlinks`).
    ///
    /// ```swift
    /// let file = try FileDescriptor.openRegular(folder + "/cover.jpg", inside: music)
    /// let bytes = try file.readAll(limit: 64 << 20)
    /// ```
    public static func openRegular(_ path: String, inside folders: ContainingFolders? = nil) throws(SystemError) -> FileDescriptor {
        // Outside files are refused before they are opened: opening a device can do things.
        var real: String?
        if let folders {
            real = SystemCall.realPath(path)
            guard let real else { throw SystemError(.open, path: path, errno: errno) }
            guard folders.contains(real: real) else { throw SystemError(.open, path: path, errno: EXDEV, refusal: .outsideFolders) }
        }
        let file = try FileDescriptor(path: path, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY)
        let st = try file.status()
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            try? file.close()
            let folder = (st.st_mode & S_IFMT) == S_IFDIR
            throw SystemError(.open, path: path, errno: folder ? EISDIR : EINVAL, refusal: .notRegularFile)
        }
        if let real {
            guard let there = try? SystemCall.status(of: real), there.st_dev == st.st_dev, there.st_ino == st.st_ino else {
                try? file.close()
                throw SystemError(.open, path: path, errno: EXDEV, refusal: .outsideFolders)
            }
        }
        let flags = fcntl(file.rawValue, F_GETFL)
        if flags >= 0 { _ = fcntl(file.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
        return file
    }

    /// Sets the file's permission bits to exactly `mode` (`fchmod`), whatever the umask made
    /// of the mode it was created with.
    public func setPermissions(_ mode: mode_t) throws(SystemError) {
        guard SystemCall.retryingInterrupts({ fchmod(rawValue, mode) }) == 0 else {
            throw SystemError(.chmod, path: path, errno: errno)
        }
    }
}
