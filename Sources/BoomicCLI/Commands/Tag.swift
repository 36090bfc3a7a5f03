import ArgumentParser
import BoomicCore
import BoomicLibrary

struct Tag: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add and remove #tags on every song matching a query.",
        discussion: """
            +#tag adds, -#tag or ^#tag removes (with its children: -#instruments removes \
            #instruments:piano too); the rest is the query. \
            Example: boomic tag artist:Miles +#jazz +#instruments:trumpet
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Argument(help: "QUERY terms, +#TAG and -#TAG.")
    var arguments: [String] = []
    var terms: [String] { get { arguments } set { arguments = newValue } }

    /// Splits the arguments into query terms, tags to add and tags to remove.
    private func split() -> (terms: [String], add: [String], remove: [String]) {
        var terms: [String] = [], add: [String] = [], remove: [String] = []
        for a in arguments {
            if a.hasPrefix("+") { add.append(String(a.dropFirst())) }
            else if a.hasPrefix("^#") || a.hasPrefix("-#") { remove.append(String(a.dropFirst())) }
            else { terms.append(a) }
        }
        return (terms, add, remove)
    }

    func validateTerms() throws {
        let (_, add, remove) = split()
        guard !(add.isEmpty && remove.isEmpty) else { throw ValidationError("nothing to do: give +#TAG to add or -#TAG to remove") }
        for t in add + remove where t.drop(while: { $0 == "#" }).isEmpty {
            throw ValidationError("'\(t)' is not a tag: write +#name or -#name")
        }
        // A comma separates alternatives in a query, so a tag named with one could only be
        // found as `#a\,b`: two tags were almost surely meant.
        for t in add where t.contains(",") {
            let names = t.drop(while: { $0 == "#" }).split(separator: ",").map { "+#" + $0.trimmingCharacters(in: .whitespaces) }
            throw ValidationError("a tag's name cannot hold a comma ('\(t)'): to add several, write \(names.joined(separator: " "))")
        }
    }

    func run() throws {
        let (terms, add, remove) = split()
        let lib = try Library.open(at: options.location, create: false)
        let parsed = try ChangeQuery.parse(terms, in: lib.basis)
        let flow = try EditFlow.tag(lib, query: parsed, add: add, remove: remove)
        let preview = flow.preview
        guard !preview.isEmpty else { Out.line("No changes to make."); return }
        for l in ChangePrinter.lines(for: preview, in: lib.basis, limit: 200) { Out.line(l) }
        for l in ChangePrinter.taglistLines(for: preview, on: lib.basis) { Out.line(l) }
        if confirm.dryRun { Out.line("Dry run: \(Formatting.count(preview.count, "song")) would change."); return }
        guard Terminal.confirm("Really tag \(Formatting.count(preview.count, "song"))?", yes: confirm.yes) else { Out.line("Nothing changed."); return }
        let c = try flow.commit(message: change.message)
        if let c { Out.line("Tagged \(Formatting.count(c.transaction.assertions.count, "song")) (transaction \(c.seq)).") }
    }
}
