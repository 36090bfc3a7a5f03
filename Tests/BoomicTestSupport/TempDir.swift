import Foundation
import Synchronization

/// A fresh folder under the system's temporary directory, removed when the value goes away, so
/// that tests never share files or leave them behind.
///
/// Keep it in a stored property (a suite's, a fixture's), or use `withTemporaryDirectory`: a
/// local whose last use is reading `path` may be released, and the folder removed, while the
/// test still works in it.
public final class TempDir: Sendable {
    public let path: String

    /// `label` starts the folder's name, to tell which test left it when a run is killed.
    public init(_ label: String = "boomic-test") {
        path = FileManager.default.temporaryDirectory.path + "/\(label)-\(UUID().uuidString)"
        // A machine that cannot make a temporary folder cannot run these tests at all.
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A folder for the test process's whole life (a `static let`'s, which is never
    /// deinitialized): removed when the process exits.
    public static func forProcess(_ label: String) -> TempDir {
        let dir = TempDir(label)
        ProcessFolders.shared.withLock { folders in
            if folders.isEmpty { atexit { ProcessFolders.removeAll() } }
            folders.append(dir.path)
        }
        return dir
    }

    /// `name` inside the folder.
    public func file(_ name: String) -> String { "\(path)/\(name)" }
}

/// Runs `body` with a fresh temporary folder, removed when it returns.
public func withTemporaryDirectory<R>(_ label: String = "boomic-test", _ body: (String) throws -> R) throws -> R {
    let dir = TempDir(label)
    return try withExtendedLifetime(dir) { try body(dir.path) }
}

/// The folders `TempDir.forProcess` made, removed at exit.
private enum ProcessFolders {
    static let shared = Mutex<[String]>([])

    static func removeAll() {
        for path in shared.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
