import Foundation
import Testing

/// Output that cannot be written is an error, never a silent success (issue 9 item 2.6): stdout
/// on a full disk (`/dev/full`) and files on one fail with one line and exit 1, leaving no
/// half-written file, while a reader that goes away (`boomic ls | head`) ends quietly.
@Suite struct FullOutputTests {
    /// A sandbox with the samples imported and a playlist to export, of its own.
    static func library(_ label: String = #function) throws -> Sandbox {
        try withPlaylist(Sandbox(label))
    }

    /// `library()` built once per test process.
    static let template = Result { try withPlaylist(Sandbox.forProcess("fullOutput")) }

    private static func withPlaylist(_ box: Sandbox) throws -> Sandbox {
        try box.importSamples()
        try box.succeed("playlist", "new", "mix", "artist:Miles")
        return box
    }

    /// A copy of `template`'s library, for the tests that change neither it nor the music.
    static func copiedLibrary(_ label: String = #function) throws -> Sandbox {
        try Sandbox(copying: template.get(), label)
    }

    /// Runs `boomic --library … ARGS` with stdout on `stdout` (a path) and stderr captured.
    static func run(_ box: Sandbox, _ arguments: [String], stdout: String) throws -> ProcessRun {
        let err = box.root + "/stderr-\(UUID().uuidString.prefix(8))"
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = try ChildProcess.start(box.executable, ["--library", box.library] + arguments,
                                             environment: ["XDG_DATA_HOME": box.root + "/xdg"],
                                             directory: box.root, stdout: stdout, stderr: err)
        process.waitUntilExit()
        return ProcessRun(arguments: arguments, status: process.terminationStatus,
                          signaled: process.terminationReason == .uncaughtSignal, stdout: "",
                          stderr: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self))
    }

    @Test(arguments: [["ls"], ["ls", "--json"], ["ls", "-a"], ["history"], ["info", "artist:Miles"],
                      ["export"], ["playlist", "export", "mix"], ["--help"], ["ls", "--help"]])
    func stdoutOnAFullDiskIsAnError(_ arguments: [String]) throws {
        let box = try Self.copiedLibrary()
        let run = try Self.run(box, arguments, stdout: "/dev/full")
        FaultTestsFullDisk.expectOneLineNamingSpace(run, "stdout on /dev/full")
    }

    /// A command that commits and then cannot print its report (stdout on a full disk) says the
    /// change is committed, as which transaction, and exits 3, never 1: a script that retries on
    /// failure would make the change twice (issue 33, 13: `playlist add` added twice). A command
    /// whose output fails before it commits (a preview) commits nothing and exits 1. The rule is
    /// one function for every committing command, so each is checked.
    @Test func aCommitWhoseReportCannotBeWrittenSaysItIsCommitted() throws {
        let box = try Self.library()
        // A file the rescan finds new, so that `import` commits.
        try FileManager.default.copyItem(atPath: box.file("Loose Files/no tags at all.wav"), toPath: box.file("Loose Files/copy.wav"))
        // nil: whether it commits before its first line is its own business; the rule holds either way.
        let commands: [(arguments: [String], commits: Bool?)] = [
            (["playlist", "add", "mix", "artist:Miles"], true),
            (["playlist", "new", "other", "artist:Miles"], true),
            (["taglist", "add", "rules", "+#jazz"], true),
            (["eq", "save", "mine", "rock"], true),
            (["import"], nil),
            (["undo"], false), // its preview comes first
            (["modify", "artist:Miles", "comment=x", "-y"], false),
            (["tag", "artist:Miles", "+#x", "-y"], false),
        ]
        for (arguments, commits) in commands {
            let before = try box.historyCount()
            let run = try Self.run(box, arguments, stdout: "/dev/full")
            let after = try box.historyCount()
            let context = arguments.joined(separator: " ")
            if let commits { #expect((after == before + 1) == commits, "\(context) commits: \(run)") }
            if after > before {
                #expect(!run.signaled && run.status == 3 && run.errorLines.count == 1
                        && run.stderr.contains("committed as transaction \(after)") && run.stderr.contains("do not run the command again"),
                        "\(context): \(run)")
            } else {
                FaultTestsFullDisk.expectOneLineNamingSpace(run, context)
                #expect(!run.stderr.contains("committed"), "\(context): \(run)")
            }
        }
    }

    /// `export -o` and `playlist export` onto a full device: one line, exit 1, and the device is
    /// written in place, not replaced by a renamed temporary file. The device is a private
    /// `/dev/full` made with mknod, so that a regression cannot replace the system's.
    @Test(.enabled(if: geteuid() == 0, "making a device node needs root"))
    func filesOnAFullDiskAreErrors() throws {
        let box = try Self.library()
        let full = box.root + "/full"
        // Major 1, minor 7: the memory devices' "full".
        try #require(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0, "mknod: \(String(cString: strerror(errno)))")
        for arguments in [["export", "-o", full], ["playlist", "export", "mix", full]] {
            let run = try box.boomic(arguments)
            FaultTestsFullDisk.expectOneLineNamingSpace(run, arguments.joined(separator: " "))
            var info = stat()
            #expect(stat(full, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "\(full) is no longer a device")
            let left = try FileManager.default.contentsOfDirectory(atPath: box.root).filter { $0.hasPrefix("full") }
            #expect(left == ["full"], "left behind: \(left)")
        }
    }

    /// Export to a regular file writes it whole, and the success message comes after.
    @Test func exportToAFileWritesItWhole() throws {
        let box = try Self.library()
        let file = box.root + "/export.jsonl"
        let run = try box.boomic("export", "-o", file)
        #expect(run.succeeded && run.stderr.contains("exported 2 transactions"), "\(run)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let end = try box.endLine(transactions: 2)
        #expect(ProcessRun.lines(text).last == end)
        let playlist = try box.succeed("playlist", "export", "mix", box.root + "/mix.m3u8")
        #expect(playlist.stdout.hasPrefix("Wrote 3 entries"), "\(playlist)")
        #expect(try String(contentsOfFile: box.root + "/mix.m3u8", encoding: .utf8).hasPrefix("#EXTM3U"))
    }

    /// Nobody reads stdout any more (`boomic ls | head` after head exits): the command stops
    /// quietly with exit 0. The pipe's read end is closed before the child starts, so every
    /// write fails with EPIPE.
    @Test(arguments: [["ls"], ["export"], ["--help"]])
    func aReaderThatGoesAwayIsNotAnError(_ arguments: [String]) throws {
        let box = try Self.copiedLibrary()
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let err = box.root + "/stderr"
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: box.executable)
        process.arguments = ["--library", box.library] + arguments
        process.environment = ChildProcess.environment(["XDG_DATA_HOME": box.root + "/xdg"])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe.fileHandleForWriting
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        let stderr = String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(arguments): exit \(process.terminationStatus), \(stderr)")
        #expect(stderr.isEmpty, "\(arguments): \(stderr)")
    }
}
