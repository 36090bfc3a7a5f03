import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

/// `boomic migrate beets [LIBRARY.DB]`: a beets library into Boomic, one undoable transaction.
struct MigrateBeets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beets",
        abstract: "Bring in a beets library: its items, values, flexible attributes, plays and covers.",
        discussion: """
            Finds the database as beets does ($BEETSDIR, else ~/.config/beets: config.yaml's \
            library: and directory:) unless LIBRARY.DB is given, and reads it read-only, so beets \
            may be running. Each item becomes a song at its path with beets' values, edits beets \
            never wrote into the file included (a rescan keeps them; 'boomic write' writes them). \
            Songs already in the library are matched by path, then audio fingerprint, never added \
            twice; running it again adds nothing. What could not be carried is one warning line \
            each. One transaction of kind migrate: 'boomic undo' takes it back. \
            The rules: Documentation/import.md.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @Flag(help: "Print the report as one JSON object: counts, the transaction, what was skipped or not carried.")
    var json = false
    @Argument(help: "beets' library database (default: the one beets' config.yaml names).", completion: .file())
    var database: String?

    struct Report: Encodable {
        struct Left: Encodable { var path: String; var values: [String] }
        var database, directory: String
        var added, updated, unchanged: Int
        var transaction: Int?
        var skipped: [String]
        var not_carried: [Left]
    }

    func run() throws {
        let location = try BeetsLocation.find(database: database, environment: ProcessInfo.processInfo.environment,
                                              cwd: FileManager.default.currentDirectoryPath)
        let lib = try Library.open(at: options.location, create: true)
        let r = try BeetsMigrationFlow.run(lib, location: location, message: change.message, events: TerminalEvents())
        let s = r.summary
        if json {
            let report = Report(database: location.database, directory: location.directory, added: s.added,
                                updated: s.updated, unchanged: s.unchanged, transaction: r.seq, skipped: r.skipped,
                                not_carried: r.notCarried.map { Report.Left(path: $0.path, values: $0.values) })
            Out.line(String(decoding: try JSONOut.encoder().encode(report), as: UTF8.self))
            return
        }
        let line = "\(s.added) added, \(s.updated) updated, \(s.unchanged) unchanged"
            + (r.skipped.isEmpty ? "" : ", \(r.skipped.count) skipped")
        if let seq = r.seq {
            Out.line("Migrated from beets: \(line) (transaction \(seq)); 'boomic undo' takes it back.")
        } else {
            Out.line("Nothing to migrate: \(line).")
        }
    }
}
