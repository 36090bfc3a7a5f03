import ArgumentParser
import Foundation
import BoomicCore
import BoomicLibrary

struct Rollback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Return the library to the state at REF, as a new transaction.",
        discussion: """
            History only grows: the rollback is itself a transaction, so 'boomic undo' takes it back. \
            Audio files are never touched. Play counts, skips, last plays and bookmarks stay as they are unless --plays. REF: a number (0 = empty library), HEAD~N, an id prefix or a date.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Flag(help: "Also return play counts, skips, last plays and bookmarks (left alone otherwise: plays are facts).")
    var plays = false
    @Argument(help: "The state to return to.")
    var ref: String

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let target = try lib.resolve(ref)
        try RollbackRun(lib: lib, targetSeq: target, kind: .rollback, label: "rollback to \(target)",
                        message: change.message, confirm: confirm, plays: plays).run()
    }
}

/// Rollback, undo and redo on the command line: show the change (`RollbackFlow`'s preview),
/// ask, then commit it.
struct RollbackRun {
    var flow: RollbackFlow
    var message: String?
    var confirm: ConfirmOptions

    init(lib: LibrarySession, targetSeq: Int, kind: Transaction.Kind, label: String, message: String?,
         confirm: ConfirmOptions, undoes: [UUID]? = nil, redoes: UUID? = nil, plays: Bool = false,
         replan: (@Sendable (LibrarySession) throws -> (steps: [UUID], targetSeq: Int)?)? = nil,
         plannedThrough: Int? = nil) throws {
        flow = try RollbackFlow(lib: lib, targetSeq: targetSeq, kind: kind, label: label,
                                undoes: undoes, redoes: redoes, plays: plays, replan: replan, plannedThrough: plannedThrough)
        self.message = message
        self.confirm = confirm
    }

    func run() throws {
        let preview = flow.preview
        guard !flow.changesNothing else { Out.line("The library is already as it was at \(flow.targetSeq); nothing to do."); return }
        for l in ChangePrinter.lines(for: preview, in: flow.lib.basis, limit: 50) { Out.line(l) }
        if confirm.dryRun { Out.line("Dry run: \(ChangePrinter.count(preview)) would change."); return }
        let label = flow.label
        guard Terminal.confirm("\(label.prefix(1).uppercased() + label.dropFirst()): change \(ChangePrinter.count(preview))?", yes: confirm.yes) else {
            Out.line("Nothing changed."); return
        }
        if let c = try flow.commit(message: message) {
            Out.line("Done: \(c.transaction.label) (transaction \(c.seq)); 'boomic undo' takes it back.")
        }
    }
}
