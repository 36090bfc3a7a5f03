import ArgumentParser
import BoomicAccounts
import Foundation

/// `boomic user key …`: API keys (OpenSubsonic's `apiKey`), each logging in as one account. A
/// key is shown once, when made; the users file keeps only its SHA-256.
struct UserKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Make, list and revoke an account's API keys.",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Make an API key for an account and print it (once: only its hash is kept).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Option(help: ArgumentHelp("What the key is for (a client, a device).", valueName: "L")) var label: String?
        @Argument(help: "The account's name.") var name: String

        struct Made: Encodable {
            var id: String
            var key: String
            var label: String?
            var user: String
        }

        func run() throws {
            let made = try UserCommand.accounts(options).addKey(to: name, label: label)
            if output.json {
                try JSONOut.printArray([Made(id: made.info.id, key: made.key, label: made.info.label, user: made.user)])
                return
            }
            let label = made.info.label.map { " (\(Terminal.printable($0)))" } ?? ""
            Out.line("API key \(made.info.id)\(label) for \(Terminal.printable(made.user)), shown only this once (boomic keeps its hash):")
            Out.line(made.key)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List an account's API keys (ids and labels; the keys themselves are not kept).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The account's name.") var name: String

        struct Row: Encodable {
            var id: String
            var label: String?
            var created: String
        }

        func run() throws {
            let keys = try UserCommand.accounts(options).keys(of: name)
            if output.json {
                try JSONOut.printArray(keys.map { Row(id: $0.id, label: $0.label, created: Formatting.isoDate($0.created.timeIntervalSince1970)) })
                return
            }
            if keys.isEmpty { Out.line("No API keys; 'boomic user key add \(Terminal.printable(name))' makes one."); return }
            for k in keys {
                Out.line("\(Terminal.bold(k.id))  \(Terminal.printable(k.label ?? "-"))  "
                         + Terminal.dim("made \(Formatting.localTime(k.created.timeIntervalSince1970))"))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Revoke an API key: clients using it are refused from then on.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The account's name.") var name: String
        @Argument(help: ArgumentHelp("The key's id, as 'boomic user key ls' shows it.", valueName: "KEY-ID")) var id: String

        func run() throws {
            let key = try UserCommand.accounts(options).removeKey(of: name, id: id)
            Out.line("Revoked API key \(key.id)\(key.label.map { " (\(Terminal.printable($0)))" } ?? "") of \(Terminal.printable(name)).")
        }
    }
}
