import ArgumentParser
import BoomicCore
import BoomicLibrary

struct Remove: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove matching songs from the library (never their files).",
        discussion: """
            The audio files stay where they are; only the library forgets the songs, in one \
            transaction that 'boomic undo' takes back. 'boomic remove missing:true' forgets the \
            songs whose files are gone. A later import of their folder adds files still on disk again. \
            A query is required: 'boomic remove' alone does nothing.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Argument(help: "The query.")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    func validateTerms() throws {
        if query.isEmpty { throw ValidationError("give a query: removing every song needs an explicit one, e.g. 'path:/'") }
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let parsed = try ChangeQuery.parse(query, in: lib.basis)
        let flow = try EditFlow.remove(lib, query: parsed, described: query.joined(separator: " "))
        let songs = flow.matched
        guard !songs.isEmpty else { Out.line("No songs match."); return }
        for s in songs.prefix(200) { Out.line("- " + SongFormat.line(s) + Terminal.dim("  " + Terminal.printable(s.path))) }
        if songs.count > 200 { Out.line("… and \(songs.count - 200) more") }
        let removal = flow.preview
        for l in ChangePrinter.taglistLines(for: removal, on: lib.basis) { Out.line(l) }
        let removed = Set(removal.compactMap(\.songID))
        let inPlaylists = lib.basis.playlistsByName.filter { $0.playlist.songs.contains(where: removed.contains) }
        if !inPlaylists.isEmpty {
            Out.line("Playlists keeping entries of removed songs (shown as removed until an undo): "
                     + inPlaylists.map(\.playlist.name).joined(separator: ", "))
        }
        if confirm.dryRun { Out.line("Dry run: \(Formatting.count(songs.count, "song")) would be removed from the library."); return }
        guard Terminal.confirm("Remove \(Formatting.count(songs.count, "song")) from the library (files stay)?", yes: confirm.yes) else {
            Out.line("Nothing changed."); return
        }
        let c = try flow.commit(message: change.message)
        if let c { Out.line("Removed \(Formatting.count(c.transaction.assertions.count, "song")) from the library (transaction \(c.seq)); files untouched.") }
    }
}
