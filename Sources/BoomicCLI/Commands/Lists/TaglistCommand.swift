import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

/// `boomic taglist …`: rule-based lists of songs (DESIGN §5), stored in the library so that
/// their definitions have history and roll back.
struct TaglistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taglist",
        abstract: "Define, list and show taglists: songs chosen by rules on tags and fields.",
        discussion: """
            Each clause is one argument: a sign (+ or -) and rules separated by commas. A song is \
            in the taglist when it satisfies every + clause and not all of the - clauses. \
            Example: boomic taglist add mix '+#english,#french' '-#french' '-@year(<2000)'. \
            See Documentation/taglists.md.
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self]
    )

    /// Reads clauses with the library's user fields as field names (`@mood:happy`), as QUERY
    /// does. They are gathered (a pass over the songs) only when a clause names something no
    /// built-in field is, so clauses without user fields cost no pass over the songs.
    static func parse(name: String, clauses: [String], in basis: @autoclosure () throws -> DataBasis) throws -> Taglist {
        do {
            return try Taglist.parse(name: name, clauses: clauses)
        } catch {
            let names = try basis().userFieldNames
            if names.isEmpty { throw error }
            return try Taglist.parse(name: name, clauses: clauses, userFields: names)
        }
    }

    struct Add: ParsableCommand, TakesTerms {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Create a taglist.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The taglist's name.") var name: String
        @Argument(help: "The clauses: +#tag,@field:value,… or -….") var clauses: [String] = []
        var terms: [String] { get { clauses } set { clauses = newValue } }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let taglist = try TaglistCommand.parse(name: name, clauses: clauses, in: lib.basis)
            let c = try lib.commit(kind: .taglist, message: change.message) { basis in
                (try TaglistGeneration.add(taglist, id: ListID(UUID()), on: basis), "taglist add \(taglist.name)")
            }
            guard let c, let (_, t) = lib.basis.taglist(named: taglist.name) else { return }
            let n = lib.basis.songCount(in: t, timeZone: .current)
            Out.line("Added taglist \(t.name): \(Formatting.count(n, "song")) (transaction \(c.seq)).")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the taglists with their rules and song counts.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Option(name: .customLong("as-of"), help: ArgumentHelp("List the taglists as they were at REF.", valueName: "REF"))
        var asOf: String?

        struct Row: Encodable { var id: String; var name: String; var clauses: [String]; var songs: Int }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let basis = try lib.basis(asOf: asOf)
            let rows = basis.taglistsByName.map { id, t in
                Row(id: id.description, name: t.name, clauses: t.arguments, songs: basis.songCount(in: t, timeZone: .current))
            }
            if output.json { try JSONOut.printArray(rows); return }
            if rows.isEmpty { Out.line("No taglists yet; 'boomic taglist add NAME CLAUSE…' makes one."); return }
            for r in rows {
                Out.line("\(Terminal.bold(Terminal.printable(r.name)))  \(Terminal.printable(r.clauses.map(Self.quoted).joined(separator: " ")))  "
                         + Terminal.dim(Formatting.count(r.songs, "song")))
            }
        }

        static func quoted(_ clause: String) -> String {
            clause.allSatisfy { $0.isLetter || $0.isNumber || "+-^#@:,._".contains($0) } ? clause : "'" + clause + "'"
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "List the songs in a taglist (or its albums or artists).",
            discussion: "Same as 'boomic ls --view NAME'; with --as-of, the taglist as it was then over the library as it was then.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Flag(name: [.short, .customLong("albums")], help: "List albums instead of songs.") var albums = false
        @Flag(help: "List artists instead of songs.") var artists = false
        @Option(name: [.short, .customLong("format")], help: "Template such as '$artist - $title'.") var format: String?
        @Option(name: .customLong("as-of"), help: ArgumentHelp("What the taglist held at REF.", valueName: "REF"))
        var asOf: String?
        @Argument(help: "The taglist's name.") var name: String

        func run() throws {
            // Its definition then (taglists.md): before it existed it held nothing, and the current
            // rules over that state are what `ls --view` is for.
            if let asOf {
                let lib = try Library.open(at: options.location, create: false)
                if try lib.basis(asOf: asOf).taglist(named: name) == nil, let (_, now) = lib.basis.taglist(named: name) {
                    throw CLIError("taglist '\(OneLine.excerpt(now.name, around: 0))' did not exist at \(OneLine.excerpt(asOf, around: 0)); "
                                   + "'boomic ls --view \(OneLine.excerpt(now.name, around: 0)) --as-of \(OneLine.excerpt(asOf, around: 0))' applies its rules of today to the library then")
                }
            }
            var ls = try Ls.parse([])
            ls.options = options
            ls.output = output
            ls.albums = albums
            ls.artists = artists
            ls.format = format
            ls.read.asOf = asOf
            ls.read.view = name
            try ls.validate()
            try ls.run()
        }
    }

    struct Edit: ParsableCommand, TakesTerms {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a taglist's clauses or name.",
            discussion: """
                With clauses, they replace the taglist's clauses. With none (and no --rename) on a \
                terminal, opens $VISUAL or $EDITOR on the clauses, one per line.
                """)
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Option(help: ArgumentHelp("A new name.", valueName: "NAME")) var rename: String?
        @Argument(help: "The taglist's name.") var name: String
        @Argument(help: "The new clauses.") var clauses: [String] = []
        var terms: [String] { get { clauses } set { clauses = newValue } }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            var newClauses: [Clause]?
            if !clauses.isEmpty {
                newClauses = try TaglistCommand.parse(name: name, clauses: clauses, in: lib.basis).clauses
            } else if rename == nil {
                let (_, current) = try TaglistGeneration.find(name, in: lib.basis)
                let lines = try EditorSession.edit(
                    current.arguments,
                    header: "# Clauses of taglist '\(current.name)', one per line: + or -, then rules separated by commas.\n"
                        + "# Lines starting with # are ignored. Save and quit to apply; an empty file changes nothing.")
                guard !lines.isEmpty else { Out.line("No clauses given: nothing changed."); return }
                newClauses = try TaglistCommand.parse(name: name, clauses: lines, in: lib.basis).clauses
            }
            let c = try lib.commit(kind: .taglist, message: change.message) { basis in
                let a = try TaglistGeneration.edit(name, clauses: newClauses, rename: rename, on: basis)
                return a.isEmpty ? nil : (a, "taglist edit \(name)" + (rename.map { " → \($0)" } ?? ""))
            }
            guard let c else { Out.line("Taglist '\(name)' already reads so: nothing changed."); return }
            for l in ChangePrinter.lines(for: c.transaction.assertions, in: lib.basis) { Out.line(l) }
            Out.line("Changed taglist (transaction \(c.seq)); 'boomic undo' takes it back.")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a taglist (its songs stay; 'boomic undo' brings it back).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The taglist's name.") var name: String

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let c = try lib.commit(kind: .taglist, message: change.message) { basis in
                (try TaglistGeneration.remove(name, on: basis), "taglist rm \(name)")
            }
            if let c { Out.line("Deleted taglist '\(name)' (transaction \(c.seq)); 'boomic undo' brings it back.") }
        }
    }
}
