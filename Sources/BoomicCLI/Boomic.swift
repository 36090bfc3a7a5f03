import ArgumentParser
import Foundation

/// `boomic`: an event-sourced music library. Every change is a transaction; nothing is final.
@main
struct Boomic: ParsableCommand {
    static let version = "0.2.0"

    static let configuration = CommandConfiguration(
        commandName: "boomic",
        abstract: "A music library where every change can be undone.",
        discussion: """
            The library lives in --library DIR, else $BOOMIC_LIBRARY, else $XDG_DATA_HOME/boomic \
            (~/.local/share/boomic). Every change is a transaction in its log: see `boomic history`, \
            `boomic undo`, `boomic rollback`.
            """,
        version: "\(version) (commit \(BuildInfo.commit))",
        subcommands: [
            Init.self, Import.self, Ls.self, Info.self, Modify.self, Tag.self, Remove.self, Write.self,
            History.self, Show.self, Diff.self, BlameCommand.self,
            Search.self, TaglistCommand.self, PlaylistCommand.self,
            Rollback.self, Undo.self, Redo.self, Revert.self,
            Verify.self, Export.self, ImportJSON.self, Backup.self,
        ]
    )

    /// The command line as typed, kept as each transaction's provenance.
    static var commandLine: String {
        (["boomic"] + CommandLine.arguments.dropFirst()).map(shellQuoted).joined(separator: " ")
    }

    static func main() {
        let raw = Array(CommandLine.arguments.dropFirst())
        let rewritten = ArgumentRewriting.rewrite(raw)
        if let lib = rewritten.library { setenv("BOOMIC_LIBRARY", lib, 1) }
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN) // past `ulimit -f` a write fails with EFBIG and is reported, not a crash
        do {
            var command = try parseAsRoot(rewritten.arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    private static func shellQuoted(_ s: String) -> String {
        if !s.isEmpty, s.allSatisfy({ $0.isLetter || $0.isNumber || "-_=:./,+#^@%".contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
