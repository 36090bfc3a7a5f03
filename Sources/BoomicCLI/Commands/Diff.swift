import ArgumentParser
import BoomicCore
import BoomicLibrary

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what differs between two states of the library, per song and field.",
        discussion: "With one REF, compares that state with HEAD. Example: boomic diff HEAD~5"
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The older state.")
    var from: String
    @Argument(help: "The newer state (default HEAD).")
    var to: String = "HEAD"

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let a = try lib.resolve(from), b = try lib.resolve(to)
        let before = try lib.basis(at: a)
        let changes = before.diff(to: try lib.basis(at: b))
        if output.json { try JSONOut.printArray(changes); return }
        if changes.isEmpty { Out.line("No differences between \(a) and \(b)."); return }
        for l in ChangePrinter.lines(for: changes, in: before) { Out.line(l) }
        Out.line(Terminal.dim("\(ChangePrinter.count(changes)) differ between \(a) and \(b)"))
    }
}
