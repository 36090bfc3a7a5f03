import Foundation
import Glibc
import Testing

/// What a scan meets on real disks (issue 9, item 2.5), and folders given to `init` (2.8): a
/// folder the user cannot read (a root-owned `lost+found` at the top of every ext4 mount) is
/// skipped with one line and its songs are left as they were; a missing folder is refused; each
/// folder is remembered once.
@Suite struct ScanProblemTests {
    var fm: FileManager { .default }

    /// Runs `boomic --library LIBRARY ARGS…` as an ordinary user: as `nobody` through setpriv
    /// when the tests run as root (root reads every folder), else as ourselves.
    func asUser(_ box: Sandbox, _ arguments: [String]) throws -> ProcessRun {
        let args = ["--library", box.library] + arguments
        guard geteuid() == 0 else { return try box.bare(args) }
        return try ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", box.executable] + args,
                                    environment: ["XDG_DATA_HOME": box.root + "/xdg"], directory: box.root)
    }

    /// `ls --json QUERY` as that user (a read as root could leave root-owned -wal/-shm files).
    func songs(_ box: Sandbox, _ query: String...) throws -> [SongRecord] {
        let run = try asUser(box, ["ls", "--json"] + query)
        try #require(run.succeeded && run.stderr.isEmpty, "\(run)")
        return try SongRecord.decode(run.stdout)
    }

    @Test func anUnreadableFolderIsSkippedWithOneLineAndItsSongsStay() throws {
        let box = try Sandbox()
        if geteuid() == 0 {
            // The library must be the user's; the music stays root's, readable by all.
            try fm.createDirectory(atPath: box.library, withIntermediateDirectories: true)
            try #require(chown(box.library, 65534, 65534) == 0)
            try #require(chmod(box.root, 0o755) == 0)
            let probe = try ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/true"])
            try #require(probe.succeeded, "cannot run as another user here: \(probe)")
        }
        let first = try asUser(box, ["import", box.music])
        #expect(first.succeeded && first.stderr.isEmpty, "\(first)")
        let count = try songs(box).count

        let closed = box.file("Miles Quartet")
        let lost = box.file("lost+found")
        try fm.createDirectory(atPath: lost, withIntermediateDirectories: true)
        try #require(chmod(lost, 0o700) == 0 && chmod(closed, 0o700) == 0)
        if geteuid() != 0 { try #require(chmod(lost, 0) == 0 && chmod(closed, 0) == 0) }
        defer { chmod(closed, 0o755); chmod(lost, 0o755) }

        let rescan = try asUser(box, ["import"])
        #expect(rescan.succeeded, "\(rescan)")
        #expect(rescan.stdout.hasPrefix("Nothing changed: 0 added, 0 changed, 0 moved, 0 missing,"), "\(rescan)")
        #expect(rescan.errorLines.count == 2, "one line per folder: \(rescan)")
        #expect(rescan.errorLines.contains { $0.contains(lost) && $0.contains("Permission denied") }, "\(rescan)")
        #expect(rescan.errorLines.contains { $0.contains(closed) }, "\(rescan)")
        #expect(try songs(box).count == count)
        #expect(try songs(box, "missing:true").isEmpty, "songs of a folder that was not read went missing")

        // A new file elsewhere is still found.
        try fm.copyItem(atPath: box.file("Loose Files/no tags at all.flac"), toPath: box.file("Loose Files/new.flac"))
        let more = try asUser(box, ["import"])
        #expect(more.succeeded && more.stdout.hasPrefix("Imported: 1 added,"), "\(more)")
    }

    @Test func initRefusesAMissingFolderAndRemembersEachFolderOnce() throws {
        let box = try Sandbox()
        let missing = try box.boomic("init", box.root + "/no such folder")
        #expect(!missing.succeeded && missing.errorLines.count == 1, "\(missing)")
        #expect(missing.stderr.contains("no such folder"), "\(missing)")
        #expect(!fm.fileExists(atPath: box.library), "a refused init left a library behind")

        let other = box.root + "/other"
        try fm.createDirectory(atPath: other, withIntermediateDirectories: true)
        let run = try box.succeed("init", box.music, box.music + "/", other, box.music + "/./", other + "//")
        #expect(run.lines.filter { $0.contains("music folder:") } == ["  music folder: \(box.music) (new)", "  music folder: \(other) (new)"], "\(run)")
        let again = try box.succeed("init", box.music + "/")
        #expect(again.lines.filter { $0.contains("music folder:") } == ["  music folder: \(box.music)", "  music folder: \(other)"], "\(again)")
        #expect(!fm.fileExists(atPath: box.root + "/library/no such folder"))
    }
}
