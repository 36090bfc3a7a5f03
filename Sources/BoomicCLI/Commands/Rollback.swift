import ArgumentParser
import Foundation
import BoomicCore

struct Rollback: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Return the library to the state at REF, as a new transaction.",
        discussion: """
            History only grows: the rollback is itself a transaction, so 'boomic undo' takes it back. \
            Audio files are never touched. REF: a number (0 = empty library), HEAD~N, an id prefix or a date.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Argument(help: "The state to return to.")
    var ref: String

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let target = try lib.resolve(ref)
        try RollbackRun(lib: lib, targetSeq: target, kind: .rollback, label: "rollback to \(target)",
                        message: change.message, confirm: confirm).run()
    }
}

/// The shared body of rollback, undo and redo: preview the diff to the target state, ask,
/// then commit the diff computed on the latest basis.
struct RollbackRun {
    var lib: Library
    var targetSeq: Int
    var kind: Transaction.Kind
    var label: String
    var message: String?
    var confirm: ConfirmOptions
    var undoes: [UUID]? = nil
    var redoes: UUID? = nil
    /// For undo and redo: works the plan out again under the write lock. The plan was made on
    /// what this process last read; if another process committed since, the steps differ and
    /// going ahead would take back (or bring back) something the user was not shown.
    var replan: ((Library) throws -> (steps: [UUID], targetSeq: Int)?)? = nil

    func run() throws {
        let target = try lib.basis(at: targetSeq)
        let preview = EditGeneration.rollback(from: lib.basis, to: target)
        // An undo or redo that changes nothing is still recorded: the undo stack is rebuilt
        // from the log, and a step left out would be undone again by the next undo.
        let isStackStep = kind == .undo || kind == .redo
        guard !preview.isEmpty || isStackStep else { Out.line("The library is already as it was at \(targetSeq); nothing to do."); return }
        for l in ChangePrinter.lines(for: preview, in: lib.basis, limit: 50) { Out.line(l) }
        if confirm.dryRun { Out.line("Dry run: \(ChangePrinter.count(preview)) would change."); return }
        guard Terminal.confirm("\(label.prefix(1).uppercased() + label.dropFirst()): change \(ChangePrinter.count(preview))?", yes: confirm.yes) else {
            Out.line("Nothing changed."); return
        }
        let shown = undoes ?? redoes.map { [$0] } ?? []
        // A rollback is a diff: above a few thousand assertions, reading the body back (a JSON
        // decode of every update) was a sixth of the command; the round-trip law covers diffs.
        let c = try lib.commit(kind: kind, message: message, undoes: undoes, redoes: redoes,
                               verifying: preview.count <= 2_000 ? nil : false) { basis in
            if let replan {
                guard let now = try replan(lib), now.steps == shown, now.targetSeq == targetSeq else {
                    throw CLIError("the library changed while this \(kind) was waiting (another boomic committed); nothing was changed, run it again")
                }
            }
            let a = EditGeneration.rollback(from: basis, to: target)
            return a.isEmpty && !isStackStep ? nil : (a, "\(label) (\(ChangePrinter.count(a)))")
        }
        if let c { Out.line("Done: \(c.transaction.label) (transaction \(c.seq)); 'boomic undo' takes it back.") }
    }
}
