import BoomicTestSupport
import Foundation
import Testing

/// Every committed transaction is in `library.sqlite` itself once the command that made it has
/// returned: a copy of that one file is the whole library, and a `-wal` or `-shm` file left
/// behind can be deleted without losing anything. `boomic backup` copies a library that is in
/// use. Issue 9, 2.1: processes left their commits in `library.sqlite-wal`, so a copy of the
/// file `storage.md` said to back up showed "No history yet".
@Suite struct DurabilityTests {
    static let albums = ["Blue Sketches", "Retro Hits", "Open Voices", "Night Drive", "Double Live"]

    /// A random session of committing commands (modify, undo, redo), calling `check` after each
    /// with the library's `history --json` as the command left it.
    static func session(_ box: Sandbox, commands: Int, _ rng: inout SplitMix64,
                        check: (Int, [String], String) throws -> Void) throws {
        var undoable = 0, redoable = 0
        for i in 0..<commands {
            let pick = Int(rng.next() % 4)
            let arguments: [String]
            if pick == 0, undoable > 0 {
                arguments = ["undo"]
                undoable -= 1; redoable += 1
            } else if pick == 1, redoable > 0 {
                arguments = ["redo"]
                redoable -= 1; undoable += 1
            } else {
                let album = albums[Int(rng.next() % UInt64(albums.count))]
                arguments = ["modify", "-y", "album:\(album)", "comment=c\(i)-\(rng.next() % 1000)"]
                undoable += 1; redoable = 0
            }
            try box.succeed(arguments)
            let history = try box.boomic("history", "--json")
            try #require(history.succeeded, "\(history)")
            try check(i, arguments, history.stdout)
        }
    }

    /// After every command of a random session, `library.sqlite` copied alone to another folder
    /// opens with the same history and songs as the library.
    @Test func aCopyOfTheDatabaseFileAloneHoldsEveryCommit() throws {
        var rng = SplitMix64.fromEnvironment()
        let seed = rng.seed
        print("DurabilityTests.copy: seed \(seed)")
        let box = try Sandbox()
        try box.importSamples()
        let copy = try Sandbox(samples: false)
        try FileManager.default.createDirectory(atPath: copy.library, withIntermediateDirectories: true)
        let log = "/library.sqlite"
        try Self.session(box, commands: 8, &rng) { i, arguments, history in
            if FileManager.default.fileExists(atPath: copy.library + log) { try FileManager.default.removeItem(atPath: copy.library + log) }
            try FileManager.default.copyItem(atPath: box.library + log, toPath: copy.library + log)
            let copied = try copy.boomic("history", "--json")
            #expect(copied.succeeded && copied.stdout == history,
                    "\(Seeds.replay(seed)), after command \(i) (\(arguments.joined(separator: " "))): the copy of library.sqlite lacks commits: \(copied)")
            #expect(try copy.listing() == box.listing(), "\(Seeds.replay(seed)), after command \(i): the copy has other songs")
        }
    }

    /// Deleting `library.sqlite-wal` and `-shm` between the commands of a random session (as a
    /// user cleaning up "leftovers" would) loses nothing, and `verify` still says OK.
    @Test func deletingTheWALBetweenCommandsLosesNothing() throws {
        var rng = SplitMix64.fromEnvironment()
        let seed = rng.seed
        print("DurabilityTests.wal: seed \(seed)")
        let box = try Sandbox()
        try box.importSamples()
        let log = box.library + "/library.sqlite"
        try Self.session(box, commands: 8, &rng) { i, arguments, history in
            let songs = try box.listing()
            for extra in ["-wal", "-shm"] { unlink(log + extra) }
            let after = try box.boomic("history", "--json")
            #expect(after.succeeded && after.stdout == history,
                    "\(Seeds.replay(seed)), after command \(i) (\(arguments.joined(separator: " "))): deleting the -wal lost commits: \(after)")
            #expect(try box.listing() == songs, "\(Seeds.replay(seed)), after command \(i): deleting the -wal changed the songs")
        }
        try Fault.expectVerifies(box, "after deleting the -wal between commands")
    }

    /// `boomic backup` while another process commits a stream of modifies: every backup is the
    /// library at one moment (its history a prefix of the final one, its songs those of
    /// `--as-of` its head) and opens as a library where it is put as `library.sqlite`.
    @Test func backupWhileAnotherProcessCommitsIsOneConsistentState() throws {
        let box = try Sandbox()
        try box.importSamples()
        let edits = 12
        let script = (0..<edits).map { i in
            "\"$0\" --library \"$1\" modify -y 'album:\(Self.albums[i % Self.albums.count])' comment=stream\(i) >/dev/null || exit 1"
        }.joined(separator: "\n")
        let writer = try ChildProcess.start("/bin/sh", ["-c", script, box.executable, box.library],
                                            environment: ["XDG_DATA_HOME": box.root + "/xdg"])
        var backups: [String] = []
        while writer.isRunning || backups.count < 2 {
            let file = box.root + "/backup-\(backups.count).sqlite"
            let run = try box.boomic("backup", file)
            #expect(run.succeeded && run.stderr.isEmpty && run.stdout.hasPrefix("Backed up "), "\(run)")
            backups.append(file)
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0, "the modifies failed while backups ran")
        let final = try box.history()
        #expect(final.count == 1 + edits)
        for (i, file) in backups.enumerated() {
            let restored = try Sandbox(samples: false)
            try FileManager.default.createDirectory(atPath: restored.library, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: restored.library + "/library.sqlite")
            let history = try restored.history()
            #expect(!history.isEmpty && Array(final.suffix(history.count)) == history,
                    "backup \(i) is not a prefix of the history: \(history.map(\.seq))")
            #expect(try restored.listing() == box.listing(asOf: String(history.count)),
                    "backup \(i) holds other songs than the library at \(history.count)")
            #expect(try restored.boomic("backup", restored.root + "/again.sqlite").succeeded, "a restored backup cannot be backed up")
        }
        print("DurabilityTests.backup: \(backups.count) backups during \(edits) commits")
    }

    /// `backup` never replaces a file unless --force, and says so in one line; a missing folder
    /// is one line too. With --force the file is replaced by a whole backup.
    @Test func backupRefusesToReplaceAFileWithoutForce() throws {
        let box = try Sandbox()
        try box.importSamples()
        let file = box.root + "/precious"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        expectOneLineError(try box.boomic("backup", file), "--force")
        #expect(FileManager.default.contents(atPath: file) == Data("keep me".utf8))
        expectOneLineError(try box.boomic("backup", box.root + "/no/such/folder/b.sqlite"))
        expectOneLineError(try box.boomic("backup", box.root), "folder")
        let forced = try box.succeed("backup", "--force", file)
        #expect(forced.stdout == "Backed up 1 transaction to \(file)\n")
        let hidden = (try FileManager.default.contentsOfDirectory(atPath: box.root)).filter { $0.hasSuffix(".tmp") }
        #expect(hidden.isEmpty, "backup left \(hidden)")
        let restored = try Sandbox(samples: false)
        try FileManager.default.createDirectory(atPath: restored.library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file, toPath: restored.library + "/library.sqlite")
        #expect(try restored.listing() == box.listing())
    }
}
