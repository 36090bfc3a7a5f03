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
}
