import BoomicSystem
import Foundation

/// An exclusive `flock` on a file in the library folder, released when the process ends
/// (even by `kill -9`), so a dead writer never blocks the next one.
public final class WriteLock: Sendable {
    /// Kept open for as long as the lock is held: closing it releases the lock.
    private let file: FileDescriptor

    public convenience init(path: String) throws {
        try self.init(path: path, waiting: true)!
    }

    /// Without `waiting`, nil when another process holds the lock.
    public init?(path: String, waiting: Bool) throws {
        do {
            file = try FileDescriptor(path: path, flags: O_RDWR | O_CREAT, mode: 0o644)
        } catch {
            throw LibraryError("cannot open \(path) (\(error.reason)); check that the library folder is writable")
        }
        do {
            if waiting { try file.lock() } else if try !file.tryLock() { return nil }
        } catch {
            throw LibraryError("cannot lock \(path) (\(error.reason)); is another boomic write stuck?")
        }
    }
}
