import ArgumentParser
import BoomicCore
import BoomicLibrary
import BoomicMedia
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Scan music folders into the library; re-running is an incremental rescan.",
        discussion: """
            New files are added, changed files re-read, moved files keep their identity (matched by \
            audio fingerprint), and files gone from disk are marked missing, not forgotten. Only \
            files whose size or modification time changed are read (all of them with --reread). \
            A folder that cannot be read is skipped with a warning, and its songs are left as they \
            were. One transaction per run.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @Flag(help: "Read every file, not only those whose size or modification time changed (finds files swapped with equal size and time).")
    var reread = false
    @Argument(help: "Folders to scan (remembered); default: the library's music folders.", completion: .directory)
    var folders: [String] = []

    func run() throws {
        let given = try Paths.musicFolders(folders)
        let lib = try Library.open(at: options.location, create: true)
        let r = try ImportFlow.run(lib, given: given, reread: reread, message: change.message, events: TerminalEvents())
        let s = r.summary
        let line = "\(s.added) added, \(s.changed) changed, \(s.moved) moved, \(s.missing) missing, \(s.unchanged) unchanged"
            + (s.unreadable > 0 ? ", \(s.unreadable) unreadable" : "")
            + (r.otherNames > 0 ? ", \(Formatting.count(r.otherNames, "hard link")) to files listed under another name" : "")
        if let seq = r.seq {
            Out.line("Imported: \(line) (transaction \(seq))")
            if let guessSeq = r.guessSeq {
                Out.line("Guessed from folder and file names: \(Formatting.count(r.guesses.songs, "song")) (transaction \(guessSeq); 'boomic undo' takes the guesses back)")
            }
        } else {
            Out.line("Nothing changed: \(line)")
        }
    }
}
