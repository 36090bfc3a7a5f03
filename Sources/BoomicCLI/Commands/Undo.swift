import ArgumentParser
import BoomicCore
import BoomicLibrary

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last N changes (a rollback that 'boomic redo' can take back in turn)."
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Flag(help: "Also take back play counts, skips, last plays and bookmarks (left alone otherwise: plays are facts).")
    var plays = false
    @Argument(help: "How many changes to take back.")
    var count: Int = 1

    func validate() throws {
        if count < 1 { throw ValidationError("N must be at least 1") }
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let stack = try lib.undoStack()
        guard let plan = stack.undoPlan(count: count) else {
            throw CLIError(stack.done.isEmpty ? "nothing to undo" : "only \(Formatting.count(stack.done.count, "change")) can be undone; try 'boomic undo \(stack.done.count)'")
        }
        let what = plan.steps.map { String($0.seq) }.joined(separator: ", ")
        if !plays { try Self.refuseLeavingPlays(lib, steps: plan.steps.map(\.seq), verb: "undo \(what)") }
        let n = count
        try RollbackRun(lib: lib, targetSeq: plan.targetSeq, kind: .undo, label: "undo \(what)",
                        message: change.message, confirm: confirm, undoes: plan.steps.map(\.id), plays: plays,
                        replan: { lib in try lib.undoStack().undoPlan(count: n).map { ($0.steps.map(\.id), $0.targetSeq) } },
                        plannedThrough: stack.readThrough).run()
    }
}

extension Undo {
    /// A step that itself changed play counts, last plays or bookmarks (a `rollback --plays`)
    /// is taken back whole or not at all: without `--plays` its play changes would stay, and
    /// the step would still count as taken back, so the plain `undo` the user reaches for
    /// would silently keep what they meant to undo.
    static func refuseLeavingPlays(_ lib: LibrarySession, steps: [Int], verb: String) throws {
        for seq in steps {
            let assertions = try lib.entry(seq: seq, keeping: true).transaction.assertions
            if EditGeneration.keepingPlays(assertions) != assertions {
                throw CLIError("\(verb) would leave the play counts, last plays or bookmarks that \(seq) changed; add --plays to take them back too")
            }
        }
    }
}

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Bring back the change the last undo took back.")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Flag(help: "Also bring back play counts, skips, last plays and bookmarks (left alone otherwise: plays are facts).")
    var plays = false

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let stack = try lib.undoStack()
        guard let plan = stack.redoPlan() else { throw CLIError("nothing to redo") }
        if !plays { try Undo.refuseLeavingPlays(lib, steps: [plan.step.seq], verb: "redo \(plan.step.seq)") }
        try RollbackRun(lib: lib, targetSeq: plan.targetSeq, kind: .redo, label: "redo \(plan.step.seq)",
                        message: change.message, confirm: confirm, redoes: plan.step.id, plays: plays,
                        replan: { lib in try lib.undoStack().redoPlan().map { ([$0.step.id], $0.targetSeq) } },
                        plannedThrough: stack.readThrough).run()
    }
}
