import ArgumentParser
import BoomicCore
import BoomicStore

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the library's transactions, newest first.",
        discussion: "Plays are hidden unless --all. Each line: number, time, kind, label."
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .short, help: "Show at most N transactions.")
    var n: Int?
    @Flag(help: "Include plays.")
    var all = false

    struct Row: Encodable {
        var seq: Int, id: String, time: String, kind: String, label: String
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let rows = try lib.summaries(newestFirst: true, limit: n, includePlays: all)
        if output.json {
            try JSONOut.printArray(rows.map { Row(seq: $0.seq, id: $0.id, time: Formatting.isoDate($0.time), kind: $0.kind, label: $0.label) })
            return
        }
        if rows.isEmpty { Out.line("No history yet: run 'boomic import DIR'."); return }
        for r in rows {
            let id = String(r.id.prefix(8))
            Out.line("\(Terminal.bold(String(r.seq).leftPad(5)))  \(Terminal.dim(id))  \(Formatting.localTime(r.time))  \(r.kind.padding(toLength: 8, withPad: " ", startingAt: 0))  \(r.label)")
        }
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
