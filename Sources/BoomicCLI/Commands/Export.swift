import ArgumentParser
import BoomicCore
import BoomicStore
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the whole log as JSON lines, one transaction per line.",
        discussion: """
            The escape hatch: 'boomic import-json FILE' rebuilds the same library from it. Writes to \
            stdout unless -o. The last line, {"end":{"transactions":N}}, tells a whole export from \
            one cut short.
            """
    )

    @OptionGroup var options: LibraryOptions
    @Option(name: .shortAndLong, help: "Write to this file instead of stdout.")
    var output: String?
    @Flag(help: "Save what is readable of a damaged log: from the newest intact checkpoint past the damage (as one transaction holding its state), or up to the first lost transaction; lists what is lost.")
    var salvage = false

    struct Line: Codable {
        var seq: Int
        var transaction: Transaction
    }

    /// The last line: without it, an export cut at a line boundary would read as a shorter history.
    struct End: Codable {
        struct Count: Codable { var transactions: Int }
        var end: Count
    }

    func run() throws {
        let entries: AnyEntries
        if salvage {
            entries = try Self.salvaged(at: options.location)
        } else {
            let lib = try Library.open(at: options.location, create: false)
            entries = { try lib.transactor.forEachEntry($0) }
        }
        let enc = JSONOut.encoder()
        // Every write checked: on a full disk the export fails, with nothing left behind.
        let file = try output.map { try OutputFile(Paths.absolute($0)) }
        let emit: (Data) throws -> Void = { data in
            if let file { try file.write(data) } else { Out.bytes(data) }
        }
        var n = 0
        try entries { e in
            var data = try enc.encode(Line(seq: e.seq, transaction: e.transaction))
            data.append(0x0A)
            try emit(data)
            n += 1
        }
        var end = try enc.encode(End(end: .init(transactions: n)))
        end.append(0x0A)
        try emit(end)
        if let output, let file {
            try file.commit()
            Terminal.warn("exported \(n) transactions to \(output)")
        }
    }
}

extension Export {
    /// Calls its argument with each transaction to export, in order.
    typealias AnyEntries = ((LogEntry<Transaction>) throws -> Void) throws -> Void

    /// What can be saved of a damaged log, renumbered from 1, with what is lost said on stderr.
    ///
    /// Starting from a checkpoint, the first transaction is a `salvage` one that adds what the
    /// checkpoint holds, so that `import-json` rebuilds exactly the state it recorded; the
    /// transactions after it keep their ids, so undo still finds what they took back.
    static func salvaged(at location: String) throws -> AnyEntries {
        let path = location + "/" + Library.logName
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError("no library at \(location); nothing to salvage")
        }
        let s = try Transactor<Transaction, DataBasis>.salvage(path: path, codec: BasisCodec.codec)
        var out: [Transaction] = []
        if let (seq, basis) = s.checkpoint {
            out.append(Transaction(
                id: UUID(), parent: nil, timestamp: Date().timeIntervalSince1970, kind: Transaction.Kind(rawValue: "salvage"),
                label: "salvage: the library after transaction \(seq) (\(basis.songs.count) songs), from its checkpoint",
                provenance: .init(command: Boomic.commandLine, message: nil, version: Boomic.version),
                assertions: DataBasis().diff(to: basis)))
        }
        out += s.entries.map(\.transaction)
        if s.lost.isEmpty {
            Terminal.warn("salvage: nothing is lost; this is the whole log")
        } else if out.isEmpty {
            Terminal.warn("salvage: nothing could be saved (no readable transaction before the first lost one, and no intact checkpoint after it); lost: \(describeSeqs(s.lost))")
        } else {
            let kept = s.checkpoint.map { "the state after transaction \($0.seq) (from its checkpoint) and " } ?? ""
            let last = s.entries.last?.seq ?? s.checkpoint?.seq ?? 0
            Terminal.warn("salvage: kept \(kept)\(s.entries.count) transaction\(s.entries.count == 1 ? "" : "s") up to \(last); "
                + "lost: \(describeSeqs(s.lost))")
        }
        let all = out
        return { body in
            for (i, t) in all.enumerated() { try body(LogEntry(seq: i + 1, transaction: t)) }
        }
    }
}

struct ImportJSON: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-json",
        abstract: "Rebuild a library from 'boomic export' output, keeping every transaction as it was.",
        discussion: "The library must be new or empty. Audio files are not read."
    )

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The JSON lines file ('-' for stdin).", completion: .file())
    var file: String

    func run() throws {
        let data: Data
        if file == "-" { data = FileHandle.standardInput.readDataToEndOfFile() }
        else {
            guard let d = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file); check the path") }
            data = d
        }
        let lib = try Library.open(at: options.location, create: true)
        guard lib.head == 0 else {
            throw CLIError("the library at \(lib.location) already has \(lib.head) transactions; import-json needs a new library (--library NEWDIR)")
        }
        let dec = JSONDecoder()
        var lines: [Export.Line] = []
        var end: (line: Int, count: Int)?
        for (i, raw) in data.split(separator: 0x0A).enumerated() where !raw.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            if let e = end {
                throw CLIError("line \(i + 1) of \(file) follows the end line (line \(e.line)): the export was edited; nothing was imported")
            }
            if let e = try? dec.decode(Export.End.self, from: Data(raw)) { end = (i + 1, e.end.transactions); continue }
            do { lines.append(try dec.decode(Export.Line.self, from: Data(raw))) } catch {
                throw CLIError("line \(i + 1) of \(file) is not an exported transaction (\(error.localizedDescription)); nothing was imported")
            }
        }
        for (i, l) in lines.enumerated() where l.seq != i + 1 {
            throw CLIError("line \(i + 1) of \(file) holds transaction \(l.seq), expected \(i + 1): the export is incomplete or reordered; nothing was imported")
        }
        // The log refuses a repeated id, but only when it gets there: check first, so that an
        // edited export is refused whole instead of half imported.
        var ids = Set<UUID>()
        for (i, l) in lines.enumerated() where !ids.insert(l.transaction.id).inserted {
            throw CLIError("line \(i + 1) of \(file) repeats transaction \(l.transaction.id.uuidString.lowercased()): the export was edited; nothing was imported")
        }
        guard let end else {
            throw CLIError("\(file) has no end line: the export was cut short (or made before boomic 0.2; if it is whole, add the line {\"end\":{\"transactions\":\(lines.count)}}); nothing was imported")
        }
        guard end.count == lines.count else {
            throw CLIError("\(file) holds \(lines.count) transactions but its end line says \(end.count): the export was edited; nothing was imported")
        }
        // One SQLite transaction for the whole file: a crash or a full disk imports all or nothing.
        do {
            try lib.transactor.appendAll(lines.map(\.transaction), expectedHead: 0)
        } catch StoreError.headMoved(_, let found) {
            throw CLIError("the library at \(lib.location) got \(found) transaction\(found == 1 ? "" : "s") from another boomic process while the export was read; import-json needs a new library (--library NEWDIR); nothing was imported")
        }
        Out.line("Imported \(lines.count) transactions; the library now has \(lib.basis.songs.count) songs.")
    }
}
