import ArgumentParser
import BoomicLibrary
import Foundation

/// `boomic`: an event-sourced music library. Every change is a transaction; nothing is final.
@main
struct Boomic: ParsableCommand {
    static let version = "0.2.0"

    // Every command names itself (`commandName`), although swift-argument-parser would derive
    // the same name from its type: deriving it runs `String(describing:)` on the type, whose
    // first use for each type searches all the runtime's conformance records. For the ~60
    // commands that is 40 % of the instructions a `boomic` process spends before its command
    // runs (139 against 81 M for `play` with nothing to play). `--experimental-dump-help`
    // prints the same tree with or without.
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
            Init.self, Import.self, Ls.self, Info.self, Modify.self, Tag.self, Remove.self, Write.self, Loudness.self,
            History.self, Show.self, Diff.self, BlameCommand.self,
            Search.self, TaglistCommand.self, PlaylistCommand.self,
            Rollback.self, Undo.self, Redo.self, Revert.self,
            Play.self, EQCommand.self, Serve.self, Status.self, Next.self, Prev.self, Pause.self, Toggle.self, Stop.self,
            QueueCommand.self, RoomsCommand.self, Config.self,
            Verify.self, Export.self, ImportJSON.self, Backup.self, MigrateCommand.self, UserCommand.self, Merge.self,
        ]
    )

    /// The command line as typed, kept as each transaction's provenance.
    static var commandLine: String {
        (["boomic"] + CommandLine.arguments.dropFirst()).map(shellQuoted).joined(separator: " ")
    }

    static func main() {
        let raw = Array(CommandLine.arguments.dropFirst())
        let prepared = ArgumentRewriting.rewrite(raw, root: CommandShape(Boomic.self))
        if let lib = prepared.library { setenv("BOOMIC_LIBRARY", lib, 1) }
        ImageDamage.checkOnTouch(unlessRunning: prepared.command)
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN) // past `ulimit -f` a write fails with EFBIG and is reported, not a crash
        atexit { Out.closeAtExit() }
        do {
            if prepared.library?.isEmpty == true { throw ValidationError(LibraryOptions.emptyLibrary) }
            var command = try parseAsRoot(prepared.arguments)
            if var taking = command as? any TakesTerms {
                taking.terms = prepared.terms ?? []
                do { try taking.validateTerms() } catch let error as ValidationError {
                    usageError(error, command: prepared.command)
                }
                command = taking
            }
            try command.run()
        } catch let stopped as TagWriting.Interrupted {
            // What a shell expects of a process a signal ended: 128 + the signal.
            Terminal.warn("Error: \(stopped)")
            Foundation.exit(128 + stopped.signal)
        } catch {
            exit(withError: printable(error))
        }
    }

    /// An error's message may quote file names, tags, terms and damaged data: its control
    /// characters are escaped as in every line on stderr (`Terminal.warn`), on a terminal or not.
    /// A usage error is the parser's own text (its usage lines), left as it is.
    private static func printable(_ error: Error) -> Error {
        guard !(error is ValidationError), let message = (error as? LocalizedError)?.errorDescription else { return error }
        let shown = Terminal.printable(message, tty: true)
        guard shown != message else { return error }
        return CLIError(shown, exitCode: (error as? CLIError)?.exitCode ?? 1)
    }

    /// A usage error found once the terms are handed over, printed as swift-argument-parser
    /// prints the ones it finds while parsing: the reason, the command's usage, exit 64.
    private static func usageError(_ error: ValidationError, command path: [String]) -> Never {
        var type: ParsableCommand.Type = Boomic.self
        for name in path {
            guard let sub = type.configuration.subcommands.first(where: { $0._commandName == name }) else { break }
            type = sub
        }
        let name = (["boomic"] + path).joined(separator: " ")
        Terminal.warn("Error: \(error.message)")
        Terminal.raw("Usage: \(usageString(for: type))\n")
        Terminal.raw("  See '\(name) --help' for more information.\n")
        Foundation.exit(ExitCode.validationFailure.rawValue)
    }

    private static func shellQuoted(_ s: String) -> String {
        if !s.isEmpty, s.allSatisfy({ $0.isLetter || $0.isNumber || "-_=:./,+#^@%".contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
