import ArgumentParser
import BoomicCore
import BoomicLibrary
import BoomicMedia
import BoomicSystem
import Foundation

struct Write: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write the library's tags and covers into the files of matching songs.",
        discussion: """
            Only files whose tags read differently from the library are written; each change is \
            shown (field: file → library) and asked for on a terminal (-y to skip). A file is never \
            written in place: the tags go into a copy beside it, whose audio bytes are checked \
            against the original's, which is flushed to disk and renamed over the original, keeping \
            its mode and owner. After 'boomic undo' or 'boomic rollback', 'boomic write' puts the \
            earlier tags back. A file changed on disk since the library last saw it is skipped \
            unless --force; read-only files and folders are skipped. Ctrl-C (or SIGTERM) stops \
            between two files: the files written are recorded and the rest left as they were \
            (exit 130 after Ctrl-C, 143 after SIGTERM); a second one stops at once.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Flag(help: "Also write files that changed on disk since they were last scanned, losing those changes.")
    var force = false
    @Argument(help: "The query (default: every song).")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let parsed = try ChangeQuery.parse(query, in: lib.basis)
        var writing = try TagWriting(lib: lib, force: force, recording: !confirm.dryRun, events: TerminalEvents())
        let planned = try writing.plan(lib.basis.songs(matching: parsed))
        for p in planned {
            Out.line(Terminal.yellow("~ ") + Terminal.printable(p.plan.song.path))
            for d in p.plan.differences { Out.line("    " + ChangePrinter.shown(d)) }
        }
        let count = Formatting.count(planned.count, "file")
        if planned.isEmpty {
            Out.line(writing.failures == 0 ? "Every file already holds the library's tags." : "Nothing to write.")
            if !confirm.dryRun, !writing.agreeing.isEmpty { _ = try writing.record([], message: change.message) }
        } else if confirm.dryRun {
            Out.line("Dry run: \(count) would be written.")
        } else if !Terminal.confirm("Write tags into \(count)?", yes: confirm.yes) {
            Out.line("Nothing written.")
        } else {
            // From here a Ctrl-C stops the write between two files, and what was written is
            // recorded (`finish` then says what was left).
            Interruption.catchSignals()
            let outcomes = writing.write(planned)
            let c = try writing.record(outcomes, message: change.message)
            Out.line("Wrote tags into \(Formatting.count(outcomes.count, "file"))"
                + (c.map { " (transaction \($0))." } ?? "."))
        }
        try writing.finish()
    }
}


extension TagWriting {
    /// `modify --write`: writes the songs the edit changed and says what was written.
    static func afterModify(_ lib: LibrarySession, transaction: Transaction, message: String?) throws {
        Interruption.catchSignals()
        let r = try afterModify(lib, transaction: transaction, message: message, events: TerminalEvents())
        Out.line("Wrote tags into \(Formatting.count(r.files, "file"))" + (r.seq.map { " (transaction \($0))." } ?? "."))
        if r.failures > 0 { throw notWritten(r.failures) }
    }
}
