import ArgumentParser
import BoomicCore
import BoomicLibrary
import BoomicStore

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
        // From the log, never two whole states: the transactions after the older state up to the
        // head. Those up to the newer state are the diff; the state at `a`, which names the songs,
        // is the head with those after `a` taken back. Both O(the change).
        let (head, latest) = lib.transactor.state
        let low = min(a, b)
        let after = try lib.transactor.entries(from: low + 1, through: head).map(\.transaction)
        let changes = LogDiff.assertions(Array(after[..<(max(a, b) - low)]), from: a, to: b)
        if output.json { try JSONOut.printArray(changes); return }
        let before = LogDiff.basis(latest, takingBack: Array(after[(a - low)...]))
        if changes.isEmpty { Out.line("No differences between \(a) and \(b)."); return }
        var out = Out.Batch()
        for l in ChangePrinter.lines(for: changes, in: before) { out.line(l) }
        out.line(Terminal.dim("\(ChangePrinter.count(changes)) differ between \(a) and \(b)"))
    }
}
