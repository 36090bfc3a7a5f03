import ArgumentParser
import BoomicLibrary
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
        try lib.mergeIfDue()
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
