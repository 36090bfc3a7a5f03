import ArgumentParser
import BoomicLibrary
import BoomicSystem
import Foundation

/// `boomic merge`: writes the checkpoint that is due, a new snapshot image of the library
/// (storage.md, "The basis: image + delta"). Every command that commits starts one, detached,
/// after its output, when its commits made a checkpoint due: the O(library) work of a merge is
/// never inside a command's time. Hidden: nothing needs a user to run it.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Write the checkpoint that is due (commands start this themselves, after their output).",
        shouldDisplay: false
    )

    @OptionGroup var options: LibraryOptions

    func run() throws {
        // One merge at a time per library: a command run in a loop would otherwise start one
        // per run while the first still writes. The lock goes with the process.
        guard let lock = try WriteLock(path: options.location + "/merge.lock", waiting: false) else { return }
        defer { withExtendedLifetime(lock) {} }
        let lib = try LibrarySession.open(at: options.location, create: false,
                                          client: .init(command: Boomic.commandLine, version: Boomic.version), mergesAfter: true)
        defer { _ = lib.close() }
        guard Self.heldForTest() else { return }
        try lib.mergeIfDue()
    }

    /// The test hook of debug builds: with `BOOMIC_TEST_MERGE_HOLD=PATH`, a merge holding
    /// `merge.lock` and its open library writes its pid to `PATH.held`, then waits for `PATH` to
    /// exist before it writes anything, so a test sees the command that started it ended while it
    /// has not landed (`MergeAfterCommandTests`). False, and the merge leaves without writing,
    /// when `PATH` does not appear within a minute. Release builds ignore the variable.
    private static func heldForTest() -> Bool {
        #if DEBUG
        guard let hold = Environment.value("BOOMIC_TEST_MERGE_HOLD"), !hold.isEmpty else { return true }
        let fm = FileManager.default
        // Written whole or not at all: the test reads the pid once the file exists.
        try? Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: hold + ".held"), options: .atomic)
        let deadline = ContinuousClock.now + .seconds(60)
        while !fm.fileExists(atPath: hold) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
        #endif
        return true
    }

    /// Starts `boomic --library LOCATION merge` in the background, reading and writing nothing
    /// of this process's terminal; a failure to start only leaves the merge to the next command.
    static func startDetached(library location: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        p.arguments = ["--library", location, "merge"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
    }
}
