import BoomicSystem
import Glibc

/// How every decoder opens its file: as a regular file, in a way that cannot block
/// (`FileDescriptor.openRegular`), the C library then reading through that descriptor and never
/// the path. A FIFO or a device named like a song, even one swapped in after the scan, fails at
/// once with the ordinary open error, and the player skips it as it skips a broken file,
/// where an open by path would hang the decode thread (and a server's room) waiting for a writer.
/// Links are followed anywhere, as MPD's `follow_outside_symlinks` does for audio files.
enum AudioFile {
    /// Opens `path` for reading; the error names the reason in one line ("it is not a regular
    /// file …") and carries it as `cause`, so no other decoder is tried on it.
    static func open(_ path: String) throws(AudioError) -> FileDescriptor {
        do {
            return try FileDescriptor.openRegular(path)
        } catch {
            throw AudioError(path: path, reason: "cannot open: \(error.reason)", cause: error)
        }
    }

    /// A new descriptor (close-on-exec) for the file `file` has open, for a C library that takes
    /// ownership of the descriptor it is given (`fdopen`, `op_fdopen`), while `file` stays with
    /// its own owner: each of the two is closed once, by its owner.
    static func duplicate(_ file: FileDescriptor) throws(AudioError) -> Int32 {
        let fd = fcntl(file.rawValue, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { throw AudioError(path: file.path, reason: "cannot open: \(String(cString: strerror(errno)))") }
        return fd
    }

    /// A stdio stream over a duplicate of `file`'s descriptor, which the caller hands to a library
    /// that closes it (libFLAC at `finish`, vorbisfile at `ov_clear`), or closes itself.
    static func stream(_ file: FileDescriptor) throws(AudioError) -> UnsafeMutablePointer<FILE> {
        let fd = try duplicate(file)
        guard let stream = fdopen(fd, "rb") else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw AudioError(path: file.path, reason: "cannot open: \(reason)")
        }
        return stream
    }
}
