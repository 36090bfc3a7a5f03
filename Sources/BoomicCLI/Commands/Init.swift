import ArgumentParser
import BoomicCore
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the library and remember music folders.",
        discussion: "Running it again on an existing library adds the folders given. Files are never touched."
    )

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Music folders to remember for `boomic import`.", completion: .directory)
    var folders: [String] = []

    func run() throws {
        let paths = folders.map(Paths.absolute)
        // Checked before the library is created: a typo must leave nothing behind.
        for (given, path) in zip(folders, paths) where given.isEmpty || !FileManager.default.fileExists(atPath: path) {
            throw CLIError("music folder '\(given)' does not exist; check the path, or mount it and try again")
        }
        let lib = try Library.open(at: options.location, create: true)
        let added = try lib.addFolders(paths)
        Out.line("Library at \(lib.location)")
        for f in try lib.folders() { Out.line("  music folder: \(f)\(added.contains(f) ? " (new)" : "")") }
    }
}
