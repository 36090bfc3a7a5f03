import Foundation
import Testing

/// A full disk gives a clear error and loses nothing (issue 4 item 6). Beside the serialized
/// FaultTests rather than in it: nothing here is timed, so it may run in parallel.
///
/// Two ways to run out of room: a small tmpfs the test mounts (root only; skipped with the
/// reason where mounting is not allowed), and a file size limit (RLIMIT_FSIZE, `ulimit -f`),
/// which needs no privilege. Under the limit SIGXFSZ would kill the process, so boomic ignores
/// it: every write past the limit fails with EFBIG, which must be reported like a full disk,
/// whether the parent ignored the signal or not (both are checked).
@Suite struct FaultTestsFullDisk {
    /// A one-line error on stderr that says the disk (or the size limit) is the problem.
    static func expectOneLineNamingSpace(_ run: ProcessRun, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 1 && !run.signaled, "\(context): \(run)", sourceLocation: sourceLocation)
        #expect(run.errorLines.count == 1 && run.errorLines.first?.hasPrefix("Error: ") == true,
                "\(context): not one error line: \(run.errorLines)", sourceLocation: sourceLocation)
        #expect(namesSpace(run.stderr), "\(context): the error does not say the disk is full: \(run.stderr)", sourceLocation: sourceLocation)
    }

    /// Whether a message says that space ran out (ENOSPC, SQLITE_FULL) or a file grew past
    /// the size limit (EFBIG).
    static func namesSpace(_ text: String) -> Bool {
        let t = text.lowercased()
        return ["no space left", "disk is full", "disk full", "is full", "file too large", "size limit"].contains { t.contains($0) }
    }

    // MARK: import

    /// The disk holding the library fills up during an import's commit: one error line,
    /// the library keeps its state (and opens while the disk is still nearly full), and the
    /// import completes once there is room.
    @Test(.enabled(if: SmallDisk.available, SmallDisk.unavailable))
    func importWhenTheDiskFillsUpFailsCleanly() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        let total = try Fault.linkedTree(box, at: tree, copies: 0..<40)
        let disk = try SmallDisk(at: box.library, kilobytes: 1536)
        defer { disk.unmount() }
        try box.succeed("import", tree + "/copy 0/Miles Quartet")
        let before = try Fault.state(box)

        try disk.fill(leaving: 192 * 1024)
        let run = try box.boomic("import", tree)
        Self.expectOneLineNamingSpace(run, "import onto a full disk")
        #expect(!run.stdout.contains("Imported"), "\(run)")
        #expect(try Fault.state(box) == before, "the library changed")
        try Fault.expectVerifies(box, "after the failed import")

        // Room for the import, and for folding it into the database file (1.5 MiB was enough
        // for the -wal file alone, and the fold waited, saying so).
        disk.empty()
        try disk.resize(kilobytes: 8192)
        let again = try box.succeed("import", tree)
        #expect(again.stdout.hasPrefix("Imported: \(total - 3) added"), "\(again)")
        #expect(try box.songs().count == total)
        try Fault.expectVerifies(box, "after the import with room")
    }

    /// A commit that fits in the `-wal` file on a disk without room to fold it into the database
    /// file: folding it half way would leave `library.sqlite` damaged on its own, earlier
    /// transactions and all. The fold waits for room instead, the command says so in one line,
    /// the database file alone still holds every earlier transaction, and the first command
    /// after space is freed folds the rest in.
    @Test(.enabled(if: SmallDisk.available, SmallDisk.unavailable))
    func aCommitWithoutRoomToFoldKeepsTheDatabaseFileWhole() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        _ = try Fault.linkedTree(box, at: tree, copies: 0..<12)
        let disk = try SmallDisk(at: box.library, kilobytes: 2048)
        defer { disk.unmount() }
        try box.succeed("import", tree + "/copy 0/Miles Quartet")
        let before = try Fault.state(box)
        let copy = try Sandbox(samples: false)
        try FileManager.default.createDirectory(atPath: copy.library, withIntermediateDirectories: true)
        func copyDatabaseFileAlone() throws {
            try? FileManager.default.removeItem(atPath: copy.library + "/library.sqlite")
            try FileManager.default.copyItem(atPath: box.library + "/library.sqlite", toPath: copy.library + "/library.sqlite")
        }

        try disk.fill(leaving: 640 * 1024)
        let run = try box.boomic("import", tree)
        #expect(run.succeeded && run.stdout.hasPrefix("Imported: "), "\(run)")
        #expect(run.errorLines.count == 1 && run.stderr.contains("held only in") && run.stderr.contains("library.sqlite-wal"), "\(run)")
        // Every command that closes the library with the fold still waiting says so again.
        let history = try box.boomic("history", "--json")
        #expect(history.succeeded && history.stderr.contains("held only in"), "\(history)")
        try copyDatabaseFileAlone()
        #expect(try copy.history() == before.history, "the database file alone lost what it held before")

        disk.empty()
        let after = try Fault.state(box)
        #expect(after.history.count == before.history.count + 1)
        try copyDatabaseFileAlone()
        #expect(try copy.history() == after.history, "the first command with room did not fold the -wal in")
        #expect(!FileManager.default.fileExists(atPath: box.library + "/library.sqlite-wal"))
        try Fault.expectVerifies(box, "after the fold")
    }

    /// The disk is already full when `boomic` starts, and the library was closed cleanly
    /// (SQLite deleted its -wal and -shm files), so opening it needs room to create them.
    /// A changing command must still say in one line that the disk is full, and reading
    /// the library (`ls`, `history`) should work.
    @Test(.enabled(if: SmallDisk.available, SmallDisk.unavailable))
    func aFullDiskIsNamedAndTheLibraryStillReads() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        _ = try Fault.linkedTree(box, at: tree, copies: 0..<2)
        let disk = try SmallDisk(at: box.library, kilobytes: 512)
        defer { disk.unmount() }
        try box.succeed("import", tree + "/copy 0/Miles Quartet")
        let before = try Fault.state(box)
        try Fault.closeCleanly(box)

        try disk.fill()
        Self.expectOneLineNamingSpace(try box.boomic("modify", "comment=No room", "-y"), "modify on a full disk")
        Self.expectOneLineNamingSpace(try box.boomic("import", tree), "import of a new folder on a full disk")
        // A library closed cleanly has no -shm file, and SQLite must create one to read a WAL
        // database: reads fall back to the database file alone (read immutably), writes still
        // fail naming the disk.
        let listed = try box.boomic("ls", "--json")
        #expect(listed.succeeded && listed.stdout == before.listing, "ls on a full disk: \(listed)")
        let history = try box.boomic("history")
        #expect(history.succeeded && history.lines.count == 1, "history on a full disk: \(history)")
        Self.expectOneLineNamingSpace(try box.boomic("taglist", "add", "x", "+#x"), "taglist add on a full disk (read-only open)")
        Self.expectOneLineNamingSpace(try box.boomic("verify", "--repair"), "verify --repair on a full disk (read-only open)")

        disk.empty()
        #expect(try Fault.state(box) == before, "the library changed")
        try Fault.expectVerifies(box, "after the disk was emptied")
    }

    /// An import whose log grows past the file size limit: one error line that names the limit
    /// and the library as before, whether the parent ignored SIGXFSZ or not; then, without a
    /// limit, the import completes.
    @Test func importOverTheFileSizeLimit() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        let total = try Fault.linkedTree(box, at: tree, copies: 0..<40)
        try box.succeed("import", tree + "/copy 0/Miles Quartet")
        let before = try Fault.state(box)
        try Fault.closeCleanly(box)
        let limit = 64 * 1024 // the log is 4 KiB, its -shm 32 KiB; importing 1,320 songs adds over a megabyte

        let failed = try Fault.limited(box, bytes: limit, ignoringSignal: true, ["import", tree])
        Self.expectOneLineNamingSpace(failed, "import past the file size limit")
        #expect(try Fault.state(box) == before, "the library changed")
        try Fault.expectVerifies(box, "after the import past the limit")

        // Where SIGXFSZ is not ignored (a user's shell): boomic ignores it itself, so the same
        // one line instead of a death by signal (exit 153; issue 9, 2.7).
        let unignored = try Fault.limited(box, bytes: limit, ignoringSignal: false, ["import", tree])
        Self.expectOneLineNamingSpace(unignored, "import past the file size limit, SIGXFSZ not ignored")
        #expect(try Fault.state(box) == before, "the library changed")
        try Fault.expectVerifies(box, "after the import past the limit, SIGXFSZ not ignored")

        let again = try box.succeed("import", tree)
        #expect(again.stdout.hasPrefix("Imported: \(total - 3) added"), "\(again)")
        try Fault.expectVerifies(box, "after the import without a limit")
    }

    // MARK: write

    /// The tags to write are long (a 6,000-character comment), so a file's tags outgrow the
    /// padding and the file grows: a write needs room for the copy and then some.
    static let longComment = "comment=" + String(repeating: "Room for a long comment. ", count: 240)

    /// A library of one copy of the samples (in `tree`) whose songs all need writing.
    static func libraryToWrite(_ box: Sandbox, tree: String) throws -> (files: [String], old: [String: Data], before: Fault.State) {
        let files = try Fault.copiedTree(box, at: tree, copies: 1)
        try box.succeed("import", tree)
        try box.succeed("modify", longComment, "genre=Out of Room", "-y")
        return (files, Fault.contents(files), try Fault.state(box))
    }

    /// After a write that failed for want of room: every file is its old self or, when the
    /// run says it wrote it, decodes as before; no copy is left beside them; every file the
    /// run did not write is reported on a line of its own that names the lack of room.
    static func expectNothingLost(_ run: ProcessRun, files: [String], old: [String: Data], tree: String,
                                  _ context: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let written = files.filter { FileManager.default.contents(atPath: $0) != old[$0] }
        #expect(run.status == 1 && !run.signaled, "\(context): \(run)", sourceLocation: sourceLocation)
        let notWritten = run.errorLines.filter { $0.hasPrefix("not written: ") }
        #expect(notWritten.count + written.count == files.count && notWritten.count > 0,
                "\(context): \(written.count) files written and \(notWritten.count) reported, of \(files.count): \(run)", sourceLocation: sourceLocation)
        #expect(run.errorLines.last == "Error: \(notWritten.count) file\(notWritten.count == 1 ? " was" : "s were") not written; see the messages above",
                "\(context): \(run.errorLines.suffix(2))", sourceLocation: sourceLocation)
        let unclear = notWritten.filter { !namesSpace($0) }
        #expect(unclear.isEmpty, "\(context): \(unclear.count) of \(notWritten.count) files not written for want of room say otherwise, e.g. \(unclear.prefix(2))",
                sourceLocation: sourceLocation)
        let temps = Fault.hiddenTemporaries(under: tree)
        #expect(temps.isEmpty, "\(context): copies left beside the files: \(temps)", sourceLocation: sourceLocation)
        return written
    }

    /// Writing tags into files on a full disk: with no room at all every file stays as it
    /// was and each says why; with room for copies but not for every grown file, each file
    /// is its old or new self; with room, the write completes.
    @Test(.enabled(if: SmallDisk.available, SmallDisk.unavailable))
    func writeOnAFullDiskLeavesEveryFileWhole() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/music"
        let disk = try SmallDisk(at: tree, kilobytes: 2048)
        defer { disk.unmount() }
        let (files, old, before) = try Self.libraryToWrite(box, tree: tree)
        let decoder = AudioDecoder(scratch: box.root)
        var samples: [String: String] = [:]
        for f in files { samples[f] = try decoder.decode(f).get() }

        try disk.fill()
        let full = try box.boomic("write", "-y")
        let none = Self.expectNothingLost(full, files: files, old: old, tree: tree, "write on a full disk")
        #expect(none.isEmpty, "files changed on a full disk: \(none)")
        #expect(try Fault.state(box) == before, "the library changed")

        disk.empty()
        try disk.fill(leaving: 160 * 1024) // room for a copy of any one file, not for all of them grown
        let tight = try box.boomic("write", "-y")
        let some = Self.expectNothingLost(tight, files: files, old: old, tree: tree, "write on a nearly full disk")
        let between = Fault.contents(files)
        try FaultTests.expectDecode(some, like: samples, decoder, "write on a nearly full disk")
        try Fault.expectVerifies(box, "after the write on a nearly full disk")

        disk.empty()
        let done = try box.boomic("write", "-y")
        #expect(done.succeeded && done.stderr.isEmpty, "\(done)")
        let new = Fault.contents(files)
        #expect(files.allSatisfy { new[$0] != old[$0] }, "the write with room left files unwritten")
        #expect(files.allSatisfy { between[$0] == old[$0] || between[$0] == new[$0] },
                "a file written on the nearly full disk differs from what the write with room made of it")
        try FaultTests.expectDecode(files, like: samples, decoder, "after the write with room")
        #expect(Fault.hiddenTemporaries(under: tree).isEmpty)
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"), "the writes were not all recorded")
    }

    /// A WAV's tags come after its audio: TagLib's save, cut short by the limit (or a full
    /// disk), leaves a copy whose audio is whole and whose tags are gone. It is refused for
    /// want of room, as any other format is, not taken for a file that cannot hold its tags
    /// (which once replaced the file, its title and artist lost, and said it wrote it).
    @Test func aWAVCutShortIsRefusedNotTakenForItsTags() throws {
        let box = try Sandbox()
        try box.importSamples()
        let wav = box.file("Field Recordist/Backyard Sessions/01 Morning Birds.wav")
        let old = try #require(FileManager.default.contents(atPath: wav))
        try box.succeed("modify", "title:Morning Birds", "comment=" + String(repeating: "A comment that outgrows the limit. ", count: 900), "-y")
        try Fault.closeCleanly(box)
        let run = try Fault.limited(box, bytes: old.count + 8 * 1024, ignoringSignal: true, ["write", "-y", "title:Morning Birds"])
        #expect(run.status == 1 && run.errorLines.first?.hasPrefix("not written: \(wav): the file size limit") == true, "\(run)")
        #expect(!run.stdout.contains("Wrote tags into 1 file"), "\(run)")
        #expect(FileManager.default.contents(atPath: wav) == old, "the WAV changed")
        #expect(Fault.hiddenTemporaries(under: box.music).isEmpty)
        let title = try box.song("title:Morning Birds").title
        #expect(title == "Morning Birds")
        let done = try box.boomic("write", "-y", "title:Morning Birds")
        #expect(done.succeeded && done.stderr.isEmpty, "\(done)")
    }

    /// Writing tags under a file size limit between the files' sizes (52 KiB: four sample
    /// files are bigger, and the long comment grows at least two more past it): with SIGXFSZ
    /// ignored, the files that would outgrow the limit stay as they were and say why; without,
    /// the same (boomic ignores the signal itself), and the next write (without a limit)
    /// completes. The log is checkpointed first, so that its own writes (a -shm of
    /// 32 KiB, a WAL of a few pages) stay under the limit.
    @Test func writeOverTheFileSizeLimit() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/music"
        let (files, old, before) = try Self.libraryToWrite(box, tree: tree)
        let limit = 52 * 1024
        #expect(files.filter { (old[$0]?.count ?? 0) > limit }.count >= 2, "no file is too big to copy under the limit")
        let decoder = AudioDecoder(scratch: box.root)
        var samples: [String: String] = [:]
        for f in files { samples[f] = try decoder.decode(f).get() }

        try Fault.closeCleanly(box)
        let failed = try Fault.limited(box, bytes: limit, ignoringSignal: true, ["write", "-y"])
        let some = Self.expectNothingLost(failed, files: files, old: old, tree: tree, "write past the file size limit")
        #expect(!some.isEmpty, "no file was small enough to write under the limit: \(failed)")
        try FaultTests.expectDecode(some, like: samples, decoder, "write past the file size limit")
        try Fault.expectVerifies(box, "after the write past the limit")
        let history = try box.history()
        #expect(history.count == before.history.count + 1 && history.first?.label == "write tags into \(some.count) files",
                "the files written under the limit were not recorded: \(history.map(\.label))")
        let between = Fault.contents(files)

        try Fault.closeCleanly(box)
        // Where SIGXFSZ is not ignored (a user's shell): boomic ignores it itself, so the files
        // left are refused the same way instead of the process dying mid-copy (issue 9, 2.7).
        let unignored = try Fault.limited(box, bytes: limit, ignoringSignal: false, ["write", "-y"])
        #expect(!unignored.signaled, "SIGXFSZ killed the write: \(unignored)")
        _ = Self.expectNothingLost(unignored, files: files, old: old, tree: tree, "write past the limit, SIGXFSZ not ignored")
        #expect(Fault.contents(files) == between, "the files written before changed, or a file too big was written")
        let stillOld = files.filter { FileManager.default.contents(atPath: $0) == old[$0] }
        try Fault.expectVerifies(box, "after the write past the limit, SIGXFSZ not ignored")

        let done = try box.boomic("write", "-y")
        #expect(done.succeeded && done.stderr.isEmpty, "\(done)")
        #expect(done.lines.last?.hasPrefix("Wrote tags into \(stillOld.count) file") == true, "\(done)")
        #expect(Fault.hiddenTemporaries(under: tree).isEmpty, "the writes left temporary copies")
        try FaultTests.expectDecode(files, like: samples, decoder, "after the write without a limit")
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"), "the writes were not all recorded")
    }
}
