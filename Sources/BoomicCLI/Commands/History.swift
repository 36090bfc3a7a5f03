import ArgumentParser
import BoomicCore
import BoomicLibrary
import BoomicStore

struct History: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the library's transactions, newest first.",
        discussion: """
            Plays are hidden unless --all or --kind play. With a QUERY, only transactions that touched a matching \
            song. Each line: number, id prefix, time, kind, label.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    // Unconditional, so that `-n -3` reaches `validate` (otherwise the parser takes a value
    // that looks like an option for a missing one).
    @Option(name: .short, parsing: .unconditional, help: "Show at most N transactions.")
    var n: Int?
    @Flag(help: "Include plays.")
    var all = false
    @Option(help: "Only transactions of this kind (import, rescan, edit, tag, rollback, undo, redo, revert, …).")
    var kind: [String] = []
    @Option(help: "Only transactions after the state REF.")
    var since: String?
    @Argument(help: "Only transactions that touched songs matching this query.")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    /// The kinds this build makes, in the order `--help` lists them.
    static let kinds: [Transaction.Kind] = [.import, .rescan, .edit, .tag, .remove, .write, .rollback, .undo, .redo,
                                            .revert, .taglist, .playlist, .play, .rating, .star]

    struct Row: Encodable {
        var seq: Int, id: String, time: String, kind: String, label: String
    }

    func validate() throws {
        if let n, n < 0 { throw ValidationError("-n must not be negative") }
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let parsed = query.isEmpty ? nil : try QueryReading.parse(query, in: lib.basis)
        let after = try since.map { try lib.resolve($0) } ?? 0
        // A kind nobody makes would silently list nothing: a typo (`--kind edits`) must say so.
        // Kinds are an open set on disk, so an older log's own kinds count as known too.
        if kind.contains(where: { k in !Self.kinds.contains { $0.rawValue == k } }) {
            let logged = Set(try lib.summaries(newestFirst: false, limit: nil, includePlays: true).map(\.kind))
            let known = Self.kinds.map(\.rawValue) + logged.subtracting(Self.kinds.map(\.rawValue)).sorted()
            if let unknown = kind.first(where: { !known.contains($0) }) {
                throw CLIError("there is no transaction kind '\(OneLine.excerpt(unknown, around: 0))'; the kinds are \(known.joined(separator: ", "))")
            }
        }
        // Newest first, so without a kind or a query to filter by, `-n` rows are all it reads:
        // `history -n 1` reads one row of the log, not all of them.
        let limit = parsed == nil && kind.isEmpty ? n : nil
        var rows = try lib.summaries(newestFirst: true, limit: limit, includePlays: all || kind.contains("play"))
            .filter { $0.seq > after && (kind.isEmpty || kind.contains($0.kind)) }
        if let parsed {
            // The song → transactions index: no body is read (an import's is tens of megabytes).
            let ids = try lib.basis.songs(matching: parsed).map(\.id.description)
            let touched = Set(try lib.transactor.touches(of: ids).values.joined().map(\.seq))
            rows = rows.filter { touched.contains($0.seq) }
        }
        if let n { rows = Array(rows.prefix(n)) }
        if output.json {
            try JSONOut.printArray(rows.map { Row(seq: $0.seq, id: $0.id, time: Formatting.isoDate($0.time), kind: $0.kind, label: $0.label) })
            return
        }
        if rows.isEmpty { Out.line(lib.head == 0 ? "No history yet: run 'boomic import DIR'." : "No transactions match."); return }
        var out = Out.Batch()
        for r in rows {
            let id = String(r.id.prefix(8))
            out.line("\(Terminal.bold(String(r.seq).leftPad(5)))  \(Terminal.dim(id))  \(Formatting.localTime(r.time))  \(r.kind.rightPad(8))  \(Terminal.printable(r.label))")
        }
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
    /// Padded with spaces after it to `n` characters; a longer text is kept whole (Foundation's
    /// `padding(toLength:)` would cut it, and costs 0.8 M instructions at its first use).
    func rightPad(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
