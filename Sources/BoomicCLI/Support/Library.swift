import BoomicLibrary
import Foundation
import Synchronization

/// How the CLI opens a library: one command per process, named by its command line.
enum Library {
    /// Opens the library at `location`; with `create`, makes the folder and the log first.
    ///
    /// Its commits write no checkpoint: when they make one due, a detached `boomic merge`
    /// writes it after the command (`closeAll`). `mergesAfter: false` keeps the checkpoints in
    /// the commit, for `import-json`, whose one append leaves them spread through the history
    /// it loads, where time travel needs them.
    ///
    /// A command commits and exits, so its commits leave the basis after them to whoever reads
    /// it first, if anyone does (`appliesCommitsWhenRead`). `resident` is for the commands that
    /// stay (`serve`, `play`): what they commit is applied on the thread that commits it, never
    /// on an event loop that reads the library next.
    static func open(at location: String, create: Bool, mergesAfter: Bool = true, resident: Bool = false) throws -> LibrarySession {
        let session = try LibrarySession.open(
            at: location, create: create,
            client: .init(command: Boomic.commandLine, version: Boomic.version), mergesAfter: mergesAfter,
            appliesCommitsWhenRead: !resident)
        // One command per process: freeing tens of thousands of songs' trees on the way out
        // takes an eighth of `ls`'s time, and the process is about to end anyway.
        _ = Unmanaged.passRetained(session)
        // But the SQLite connections are closed at exit, which the basis is not needed for:
        // the last close folds the -wal file back into library.sqlite.
        _ = closingAtExit
        opened.withLock { $0.append(session) }
        return session
    }

    /// What the libraries this process opened committed, nil when nothing (one library per
    /// command, so the first that committed is the one).
    static func committedHere() -> LibrarySession.OwnCommits? {
        opened.withLock { $0 }.lazy.compactMap(\.committedHere).first
    }

    /// The sessions this process opened, closed at exit.
    private static let opened = Mutex<[LibrarySession]>([])

    /// Registers the exit handler once. `atexit` runs on every way out that matters here: `main`
    /// returning, ArgumentParser's `exit(withError:)`, and `exit(0)` on a closed pipe.
    private static let closingAtExit: Void = {
        atexit { Library.closeAll() }
    }()

    /// Closes every library this process opened (their bases stay in memory), and says so when
    /// a disk without room kept the newest transactions in the `-wal` file alone.
    static func closeAll() {
        // Due after this command's commits, or after an open that replayed a long tail (an older
        // library's first open, a merge that has not landed): either way the next open gains.
        for s in opened.withLock({ $0 }) where s.isMergeDue {
            Merge.startDetached(library: s.location)
        }
        for s in opened.withLock({ $0 }) {
            guard let shortfall = s.close() else { continue }
            Terminal.warn(Self.unfoldedWALWarning(database: s.transactor.path, shortfall: shortfall))
        }
    }

    static func unfoldedWALWarning(database: String, shortfall: Int) -> String {
        let mib = (shortfall + (1 << 20) - 1) >> 20
        return "the newest transactions are committed but held only in \(database)-wal: the disk needs \(mib) MiB more "
            + "to fold them into the database file; free space, then run any boomic command (until then copy both files, and never delete the -wal)"
    }
}

/// Flows report to the terminal: problems on stderr, progress as a bar when stderr is a TTY.
struct TerminalEvents: LibraryEvents {
    func warn(_ message: String) { Terminal.warn(message) }
    func progress(_ title: String, total: Int) -> any WorkProgress { Progress(title: title, total: total) }
}

extension Progress: WorkProgress {}
