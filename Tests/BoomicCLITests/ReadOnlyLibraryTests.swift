import BoomicStore
import Foundation
import Testing

/// A library someone else owns, or on a read-only folder, can be read; a change is refused in
/// one line that names the permission (issue 9, 2.7: even `ls` failed with "attempt to write a
/// readonly database … report a bug"). Tests run as root, whom permissions do not stop, so
/// the commands run as `nobody` through `setpriv`; skipped where that is impossible.
@Suite struct ReadOnlyLibraryTests {
    static let setpriv = "/usr/bin/setpriv"

    /// Whether this process may run a command as another user.
    static let canDropPrivileges: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv),
              let run = try? ChildProcess.run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/true"]) else { return false }
        return run.succeeded
    }()

    /// `boomic --library LIBRARY ARGS` as the user nobody.
    static func asNobody(_ box: Sandbox, _ arguments: [String]) throws -> ProcessRun {
        try ChildProcess.run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", box.executable, "--library", box.library] + arguments,
                             environment: ["XDG_DATA_HOME": box.root + "/xdg", "HOME": box.root], directory: box.root)
    }

    /// Makes the sandbox readable by everyone (NSTemporaryDirectory's folders are private).
    static func openToAll(_ box: Sandbox) throws {
        var dir = box.root
        while dir != "/" && !dir.isEmpty {
            var st = stat()
            if stat(dir, &st) == 0, st.st_mode & 0o005 != 0o005 { chmod(dir, st.st_mode | 0o005) }
            dir = (dir as NSString).deletingLastPathComponent
        }
        let run = try ChildProcess.run("/bin/chmod", ["-R", "a+rX", box.root])
        try #require(run.succeeded, "\(run)")
        // The executable stays where it was built: a clone in a private folder fails here,
        // naming the cause, rather than in the first command with a bare "Permission denied".
        let version = try ChildProcess.run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", box.executable, "--version"])
        try #require(version.succeeded, "nobody may not run \(box.executable): every folder above it must be searchable by others\n\(version)")
    }

    @Test(.enabled(if: canDropPrivileges, "running as another user needs root and setpriv"))
    func aLibraryYouMayNotWriteCanBeRead() throws {
        let box = try Sandbox()
        try box.importSamples()
        let songs = try box.listing()
        try Self.openToAll(box)
        #expect(!FileManager.default.fileExists(atPath: box.library + "/library.sqlite-wal"), "the -wal file was left behind")

        // Owned by root, readable by all: nobody may not write the folder nor the file.
        for command in [["ls", "--json"], ["history"], ["verify"]] {
            let run = try Self.asNobody(box, command)
            #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
        }
        #expect(try Self.asNobody(box, ["ls", "--json"]).stdout == songs)
        let refused = try Self.asNobody(box, ["modify", "-y", "album:Blue Sketches", "comment=mine"])
        // Refused before any preview (showing a change that cannot be made misleads), in one
        // line naming the permission; so is every other changing command.
        #expect(refused.status == 1 && refused.errorLines.count == 1 && refused.stderr.hasPrefix("Error: You may not write to \(box.library) (Permission denied)"),
                "\(refused)")
        #expect(refused.stdout.isEmpty, "a change that cannot be made was previewed: \(refused)")
        for command in [["tag", "-y", "album:Blue Sketches", "+#mine"], ["remove", "-y", "album:Blue Sketches"],
                        ["undo", "-y"], ["rollback", "-y", "0"], ["write", "-y"], ["revert", "-y", "1"]] {
            let run = try Self.asNobody(box, command)
            #expect(run.status == 1 && run.errorLines.count == 1 && run.stdout.isEmpty
                    && run.stderr.hasPrefix("Error: You may not write to \(box.library) (Permission denied)"), "\(command): \(run)")
        }
        #expect(try box.listing() == songs, "the refused modify changed something")

        // A backup to a folder nobody may write to is refused the same way; to one it may, works.
        expectOneLineError(try Self.asNobody(box, ["backup", box.library + "/copy.sqlite"]), "you may not write to")
        let mine = box.root + "/mine"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        chown(mine, 65534, 65534)
        let backup = try Self.asNobody(box, ["backup", mine + "/library.sqlite"])
        #expect(backup.succeeded && backup.stderr.isEmpty, "\(backup)")
    }

    /// `blame` on a library whose song index is missing (made by a build without it) and that
    /// this user may not write: the rows the index lacks are read in memory, the answer is the
    /// one the owner gets, and nothing is written.
    @Test(.enabled(if: canDropPrivileges, "running as another user needs root and setpriv"))
    func blameOfALibraryYouMayNotWriteReadsTheLogInstead() throws {
        let box = try Sandbox()
        try box.importSamples()
        let modified = try box.boomic("modify", "-y", "album:Blue Sketches", "genre=Modal Jazz")
        try #require(modified.succeeded, "\(modified)")
        let owners = try box.boomic("blame", "--json", "album:Blue Sketches")
        try #require(owners.succeeded && owners.stdout.contains("Modal Jazz"), "\(owners)")
        let drop = try ChildProcess.run("/usr/bin/sqlite3", [box.library + "/library.sqlite", "DROP TABLE touches; DROP TABLE derived"])
        try #require(drop.succeeded, "\(drop)")
        try Self.openToAll(box)
        let theirs = try Self.asNobody(box, ["blame", "--json", "album:Blue Sketches"])
        #expect(theirs.succeeded && theirs.stderr.isEmpty, "\(theirs)")
        #expect(theirs.stdout == owners.stdout)
        let tables = try ChildProcess.run("/usr/bin/sqlite3", [box.library + "/library.sqlite", "SELECT count(*) FROM sqlite_master WHERE name = 'touches'"])
        #expect(tables.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "a read-only blame wrote its index")
    }

    /// How `library.image` stands when another user reads the library, and whether that user
    /// may write the folder (not the file): where it may, an image written or replaced by a
    /// read-only open would show.
    enum ImageCase: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The newest checkpoint's bytes: mapped.
        case matching
        /// No file: the checkpoint row is read into memory.
        case missing
        /// No file, in a folder this user may write: none is written.
        case missingInAWritableFolder
        /// An older checkpoint's bytes, in a folder this user may write: not mapped, not replaced.
        case staleInAWritableFolder

        var testDescription: String { rawValue }
        var folderIsWritable: Bool { self == .missingInAWritableFolder || self == .staleInAWritableFolder }
    }

    /// What a file in the library folder is: any write (in place, or a new file renamed over
    /// it) changes its size, its mtime or its inode.
    struct FileState: Equatable, CustomStringConvertible {
        var size: Int64, mtime: timespec, inode: UInt
        static func == (a: Self, b: Self) -> Bool {
            a.size == b.size && a.mtime.tv_sec == b.mtime.tv_sec && a.mtime.tv_nsec == b.mtime.tv_nsec && a.inode == b.inode
        }
        var description: String { "\(size) bytes, mtime \(mtime.tv_sec).\(mtime.tv_nsec), inode \(inode)" }
    }

    /// Every file and folder under `folder`, by its path inside it.
    static func files(under folder: String) throws -> [String: FileState] {
        var all: [String: FileState] = [:]
        let names = try #require(FileManager.default.subpaths(atPath: folder))
        for name in names + ["."] {
            var st = stat()
            try #require(lstat(folder + "/" + name, &st) == 0, "\(name): \(String(cString: strerror(errno)))")
            all[name] = FileState(size: Int64(st.st_size), mtime: st.st_mtim, inode: UInt(st.st_ino))
        }
        return all
    }

    /// A library whose newest checkpoint is at 200, with 20 transactions after it, read by
    /// `nobody` as its owner reads it: every read prints what it prints for the owner, a change is
    /// refused in one line, and not a file of the library folder changes (no `library.image`
    /// written or replaced, no `-wal` or `-shm` left behind). storage.md, "Where it lives": a
    /// read-only library maps a `library.image` that matches, and otherwise reads the newest
    /// checkpoint row into memory.
    @Test(.enabled(if: canDropPrivileges, "running as another user needs root and setpriv"), arguments: ImageCase.allCases)
    func anotherUserReadsTheSnapshotAsTheOwnerAndWritesNothing(_ image: ImageCase) throws {
        let box = try Sandbox()
        // The image of an older state of the same log, to stand for a stale `library.image`
        // (the library keeps no checkpoint that splits so short a history).
        try box.loadEdits(transactions: 100)
        let older = try box.checkpointData(100)
        try box.extendEdits(to: 220)
        let seqs = try box.checkpointSeqs()
        try #require(seqs.last == 200, "the setup: the newest checkpoint at 200: \(seqs)")
        let imageFile = box.library + "/library.image"
        let newest = try box.checkpointData(200)
        try #require(FileManager.default.contents(atPath: imageFile).map([UInt8].init) == newest, "the setup: library.image is the newest checkpoint")

        // What the owner sees; read before the image is taken away, which the owner's next
        // command would write again.
        let reads: [[String]] = [
            ["ls", "--json"], ["ls", "album:Blue Sketches"], ["ls", "--albums"], ["ls", "--json", "comment:c220"],
            ["history"], ["history", "--json", "-n", "30"],
            ["ls", "--json", "--as-of", "150"], ["ls", "--json", "--as-of", "50"], ["ls", "--as-of", "HEAD~5", "album:Blue Sketches"],
            ["diff", "HEAD~5"], ["diff", "--json", "150", "210"], ["diff", "50"],
        ]
        var owners: [[String]: String] = [:]
        for read in reads {
            let run = try box.succeed(read)
            owners[read] = run.stdout
        }
        #expect(owners[["ls", "--json", "comment:c220"]]?.contains("c220") == true && owners[["diff", "50"]]?.contains("c220") == true)

        switch image {
        case .matching: break
        case .missing, .missingInAWritableFolder: try FileManager.default.removeItem(atPath: imageFile)
        case .staleInAWritableFolder: try Data(older).write(to: URL(fileURLWithPath: imageFile))
        }
        try Self.openToAll(box)
        if image.folderIsWritable { chmod(box.library, 0o777) }
        let before = try Self.files(under: box.library)
        #expect(before.keys.allSatisfy { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "the owner left \(before.keys.sorted())")

        for read in reads {
            let run = try Self.asNobody(box, read)
            #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
            #expect(run.stdout == owners[read], "\(read): nobody reads otherwise than the owner\n\(run)\n--- the owner's:\n\(owners[read] ?? "")")
        }
        let refused = try Self.asNobody(box, ["modify", "-y", "album:Blue Sketches", "comment=mine"])
        #expect(refused.status == 1 && refused.errorLines.count == 1 && refused.stdout.isEmpty
                && refused.stderr.hasPrefix("Error: You may not write to \(box.library)") && refused.stderr.contains("(Permission denied)"), "\(refused)")

        let after = try Self.files(under: box.library)
        #expect(after == before, "nobody changed the library folder: before \(before), after \(after)")
        #expect(try box.listing() == owners[["ls", "--json"]], "the owner reads what it read")
    }

    /// A damaged segment of a matching `library.image`, met by a user who may not remove the
    /// file: one line that names the block and says the file stays (not that it is removed),
    /// nothing changed; the owner's commands remove it and write it again, and then the other
    /// user reads what the owner reads.
    @Test(.enabled(if: canDropPrivileges, "running as another user needs root and setpriv"))
    func aDamagedImageAnotherUserMayNotRemoveIsNamedAndKept() throws {
        let box = try Sandbox()
        try box.loadEdits(transactions: 120)
        let imageFile = box.library + "/library.image"
        let good = try #require(FileManager.default.contents(atPath: imageFile), "the setup: import-json writes library.image")
        let listed = try box.listing()
        let ids = try #require(try SnapshotImage(ImageBytes(copying: good)).entries.first { $0.name == "songs.ids" })
        var damaged = good
        damaged[ids.offset + ids.length / 2] ^= 0x40
        try damaged.write(to: URL(fileURLWithPath: imageFile))
        try Self.openToAll(box)
        let before = try Self.files(under: box.library)

        let stopped = try Self.asNobody(box, ["ls", "--json"])
        expectOneLineError(stopped, "library image block songs.ids does not match its checksum")
        #expect(stopped.stderr.contains("; you may not remove \(imageFile) (Permission denied): the next command of a user who may write the library rebuilds it; nothing was changed")
                && !stopped.stderr.contains("it is removed"), "\(stopped)")
        #expect(try Self.files(under: box.library) == before, "nobody changed the library folder")

        expectOneLineError(try box.boomic("ls", "--json"), "it is removed, and the next command rebuilds it")
        #expect(try box.listing() == listed)
        #expect(FileManager.default.contents(atPath: imageFile) == good, "the owner's command wrote it again")
        let read = try Self.asNobody(box, ["ls", "--json"])
        #expect(read.succeeded && read.stderr.isEmpty && read.stdout == listed, "\(read)")
    }
}
