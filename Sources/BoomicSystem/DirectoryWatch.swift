import Glibc
import Synchronization

/// Waits until a file in one folder is written, through inotify: a daemon that follows a file
/// other processes write (the library's log) sleeps until it changes instead of polling it.
///
/// Only the folder's own entries are seen (not its subfolders'), and only writes made on this
/// machine (a network file system reports none of another host's): callers keep a slow poll
/// as the safety net, the `timeout` of `wait`.
///
/// Sendable: the descriptors are fixed at creation and only used through system calls the
/// kernel serialises; `cancel` writes a byte down a pipe, which any thread may do.
public final class DirectoryWatch: Sendable {
    private let inotify: Int32
    /// A pipe: `wait` polls its read end, `cancel` writes to the other.
    private let wakeup: (read: Int32, write: Int32)
    private let prefix: String

    /// Watches `folder` for entries whose names begin with `prefix` being created, written,
    /// moved in or removed. Nil when inotify cannot (no inotify, out of watches, a file
    /// system without it): the caller then polls.
    public init?(folder: String, namesStartingWith prefix: String) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE)
        var ends: [Int32] = [-1, -1]
        guard inotify_add_watch(fd, folder, mask) >= 0, pipe(&ends) == 0 else {
            close(fd)
            return nil
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        inotify = fd
        wakeup = (ends[0], ends[1])
        self.prefix = prefix
    }

    deinit {
        close(inotify)
        close(wakeup.read)
        close(wakeup.write)
    }

    /// What ended a `wait`.
    public enum Event: Sendable, Equatable {
        /// A watched file was written (or created, moved in, removed).
        case changed
        /// Nothing in `timeout`.
        case timedOut
        /// `cancel()` was called.
        case cancelled
    }

    /// Blocks until a watched file changes, `timeout` passes or `cancel()` is called. Events
    /// that came meanwhile are all taken: a burst of writes (one commit) is one `changed`.
    public func wait(timeout: Duration) -> Event {
        var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0)]
        let (seconds, attoseconds) = timeout.components
        let ms = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        let ready = poll(&fds, 2, max(0, ms))
        if ready < 0 {
            // Interrupted, or poll failing: a timeout either way (the caller polls), after
            // sleeping it out so a failing poll cannot spin.
            if errno != EINTR { usleep(UInt32(clamping: Int(ms) * 1000)) }
            return .timedOut
        }
        if fds[1].revents != 0 { return .cancelled }
        guard fds[0].revents != 0 else { return .timedOut }
        return takeEvents() ? .changed : .timedOut
    }

    /// Ends the current and every later `wait` at once.
    public func cancel() {
        var byte: UInt8 = 1
        _ = write(wakeup.write, &byte, 1)
    }

    /// Reads every pending event; whether one named a watched file.
    private func takeEvents() -> Bool {
        var matched = false
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = read(inotify, buffer, size)
            guard n > 0 else { return matched }
            var at = 0
            while at + MemoryLayout<inotify_event>.size <= n {
                let event = buffer.load(fromByteOffset: at, as: inotify_event.self)
                let nameStart = at + MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let name = String(cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self))
                    if name.hasPrefix(prefix) { matched = true }
                } else {
                    matched = true  // the folder itself
                }
                at = nameStart + Int(event.len)
            }
        }
    }
}
