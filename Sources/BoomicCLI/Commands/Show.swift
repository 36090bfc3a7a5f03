import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one transaction: where it came from and every change, old → new."
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Flag(name: .shortAndLong, help: "Also show the library's bookkeeping fields (file_values).")
    var verbose = false
    @Argument(help: "The transaction: a number, HEAD, HEAD~N or an id prefix.")
    var ref: String = "HEAD"

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let seq = try lib.resolve(ref)
        guard seq > 0 else { throw CLIError("state 0 is the empty library, before any transaction; name a transaction from 1 to \(lib.head)") }
        let entry = try lib.entry(seq: seq)
        let t = entry.transaction
        if output.json {
            let data = try JSONOut.encoder().encode(ShownTransaction(seq: seq, transaction: t))
            Out.line("[" + String(decoding: data, as: UTF8.self) + "]")
            return
        }
        Out.line(Terminal.bold("transaction \(seq)") + "  " + t.id.uuidString.lowercased())
        Out.line("kind:     \(t.kind)")
        Out.line("label:    \(Terminal.printable(t.label))")
        Out.line("time:     \(Formatting.localTime(t.timestamp))")
        if let c = t.provenance.command { Out.line("command:  \(Terminal.printable(c))") }
        if let u = t.provenance.user { Out.line("user:     \(Terminal.printable(u))") }
        if let c = t.provenance.client { Out.line("client:   \(Terminal.printable(c))") }
        if let m = t.provenance.message { Out.line("message:  \(Terminal.printable(m))") }
        if let v = t.provenance.version { Out.line("version:  boomic \(v)") }
        Out.line("changes:  \(t.assertions.count)")
        Out.line()
        let before = try lib.basis(at: seq - 1)
        for l in ChangePrinter.lines(for: t.assertions, in: before, showingBookkeeping: verbose) { Out.line(l) }
    }
}

/// `show --json`: the transaction as logged, with its sequence number.
struct ShownTransaction: Encodable {
    var seq: Int
    var transaction: Transaction
}
