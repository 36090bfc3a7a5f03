import ArgumentParser
import BoomicCore
import BoomicLibrary
import BoomicStore
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the whole log as JSON lines, one transaction per line.",
        discussion: """
            The escape hatch: 'boomic import-json FILE' rebuilds the same library from it. Writes to \
            stdout unless -o. The last line, {"end":{"transactions":N}}, tells a whole export from \
            one cut short; it also names the music folders the library remembers ("folders"), so \
            that the rebuilt library rescans them.
            """
    )

    @OptionGroup var options: LibraryOptions
    @Option(name: .shortAndLong, help: "Write to this file instead of stdout.")
    var output: String?
    @Flag(help: "Save what is readable of a damaged log: from the newest intact checkpoint past the damage (as one transaction holding its state), or up to the first lost transaction; lists what is lost.")
    var salvage = false

    func run() throws {
        // Every write checked: on a full disk the export fails, with nothing left behind.
        let file = try output.map { try OutputFile(Paths.absolute($0)) }
        let emit: (UnsafeRawBufferPointer) throws -> Void = { bytes in
            if let file { try file.write(bytes) } else { Out.bytes(bytes) }
        }
        let n: Int
        if salvage {
            let s = try ExportFormat.salvage(at: options.location, client: .init(command: Boomic.commandLine, version: Boomic.version))
            Terminal.warn(s.report)
            n = try ExportFormat.write(s.entries, folders: LibrarySession.folders(at: options.location)) { try $0.withUnsafeBytes(emit) }
        } else {
            // The log's bodies as stored, each checked against its checksum: a damaged row stops
            // the export there, and `--salvage` is the way past it.
            let lib = try Library.open(at: options.location, create: false)
            n = try ExportFormat.write(bodies: { try lib.transactor.forEachBody($0) },
                                       folders: LibrarySession.folders(at: options.location), emit: emit)
        }
        if let output, let file {
            try file.commit()
            Terminal.warn("exported \(n) transactions to \(output)")
        }
    }
}

struct ImportJSON: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-json",
        abstract: "Rebuild a library from 'boomic export' output, keeping every transaction as it was.",
        discussion: "The library must be new or empty. Audio files are not read; the music folders the export names are remembered, as 'boomic import DIR' remembers DIR."
    )

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The JSON lines file ('-' for stdin).", completion: .file())
    var file: String

    func run() throws {
        let data: Data
        if file == "-" { data = FileHandle.standardInput.readDataToEndOfFile() }
        else {
            // A FileHandle reads what `contents(atPath:)` does not: a pipe, `/dev/stdin`, `/dev/null`.
            guard let handle = FileHandle(forReadingAtPath: file) else { throw CLIError("cannot read \(file); check the path") }
            data = handle.readDataToEndOfFile()
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }) {
            throw CLIError("\(file == "-" ? "the input" : file) is empty: no exported transactions; nothing was imported")
        }
        // Read whole before the library is made: a file refused leaves no library behind.
        let contents = try ExportFormat.read(data, name: file)
        let transactions = contents.transactions
        let lib = try Library.open(at: options.location, create: true, mergesAfter: false)
        guard lib.head == 0 else {
            throw CLIError("the library at \(lib.location) already has \(lib.head) transactions; import-json needs a new library (--library NEWDIR)")
        }
        // One SQLite transaction for the whole file: a crash or a full disk imports all or nothing.
        do {
            try lib.appendAll(transactions, expectedHead: 0)
        } catch StoreError.headMoved(_, let found) {
            throw CLIError("the library at \(lib.location) got \(Formatting.count(found, "transaction")) from another boomic process while the export was read; import-json needs a new library (--library NEWDIR); nothing was imported")
        }
        // The folders are remembered once the log holds the transactions: a refused import
        // leaves an empty library, never one that remembers folders it has no songs of.
        let folders = contents.folders.isEmpty ? [] : try lib.addFolders(contents.folders)
        Out.line("Imported \(Formatting.count(transactions.count, "transaction")); the library now has \(Formatting.count(lib.basis.songs.count, "song")).")
        if !folders.isEmpty {
            Out.line("It remembers the music \(folders.count == 1 ? "folder" : "folders") \(folders.joined(separator: ", ")), as the exported library did.")
        }
    }
}
