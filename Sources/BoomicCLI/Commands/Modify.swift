import ArgumentParser
import BoomicCore
import BoomicLibrary

struct Modify: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "modify",
        abstract: "Change fields of every song matching a query, in one transaction.",
        discussion: """
            Arguments with '=' set a field (year=1969, artist=A; B), FIELD! clears it; the rest is \
            the query. A name no field has creates your own field (mood=happy), kept in the library \
            and never written to files; a name close to a known field needs --new-field. Shows each \
            song's change and asks on a terminal (-y to skip). 'boomic undo' takes the whole change back.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Flag(help: "Then write the changed songs' tags into their files (see 'boomic write').")
    var write = false
    @Flag(help: "Create a new field even though its name is close to a known one (yeer=1969).")
    var newField = false
    @Argument(help: "QUERY terms and FIELD=VALUE / FIELD! assignments.")
    var arguments: [String] = []
    var terms: [String] { get { arguments } set { arguments = newValue } }

    func validateTerms() throws {
        if Self.split(arguments).assignments.isEmpty {
            throw ValidationError("nothing to change: give at least one FIELD=VALUE or FIELD!")
        }
    }

    func run() throws {
        let (terms, typed) = Self.split(arguments)
        let lib = try Library.open(at: options.location, create: false)
        let userFields = lib.basis.userFieldNames
        let assignments = try typed.map { try FieldAssignment.parse($0, userFields: userFields, newField: newField) }
        let parsed = try ChangeQuery.parse(terms, in: lib.basis)
        let flow = try EditFlow.modify(lib, query: parsed, set: assignments)
        let preview = flow.preview
        guard !preview.isEmpty else { Out.line("No changes to make."); return }
        for l in ChangePrinter.lines(for: preview, in: lib.basis, limit: 200) { Out.line(l) }
        for l in ChangePrinter.taglistLines(for: preview, on: lib.basis) { Out.line(l) }
        for name in Set(assignments.compactMap(\.userField)).subtracting(userFields).sorted() {
            Out.line("New field '\(name)': kept in the library (queries, --json, info), never written to files.")
        }
        if confirm.dryRun { Out.line("Dry run: \(Formatting.count(preview.count, "song")) would change."); return }
        guard Terminal.confirm("Really modify \(Formatting.count(preview.count, "song"))?", yes: confirm.yes) else {
            Out.line("Nothing changed."); return
        }
        let c = try flow.commit(message: change.message)
        if let c { Out.line("Modified \(Formatting.count(c.transaction.assertions.count, "song")) (transaction \(c.seq)); 'boomic undo' takes it back.") }
        if write, let c { try TagWriting.afterModify(lib, transaction: c.transaction, message: change.message) }
    }

    /// Splits arguments into query terms and assignments. An assignment starts with a plain
    /// field name followed by `=` (so `title:=x` stays a query term) or is `FIELD!`; it is
    /// parsed once the library's own fields are known.
    static func split(_ args: [String]) -> (terms: [String], assignments: [String]) {
        var terms: [String] = [], assignments: [String] = []
        for a in args {
            let name = a.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            let rest = a.dropFirst(name.count)
            if !name.isEmpty, rest.hasPrefix("=") || rest == "!" {
                assignments.append(a)
            } else {
                terms.append(a)
            }
        }
        return (terms, assignments)
    }
}
