import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the library and remember music folders.",
        discussion: "Running it again on an existing library adds the folders given. Files are never touched."
    )

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Music folders to remember for `boomic import`.", completion: .directory)
    var folders: [String] = []

    func run() throws {
        let paths = try Paths.musicFolders(folders)
        let lib = try Library.open(at: options.location, create: true)
        let added = try lib.addFolders(paths)
        Out.line("Library at \(lib.location)")
        for f in try lib.folders() { Out.line("  music folder: \(f)\(added.contains(f) ? " (new)" : "")") }
    }
}
