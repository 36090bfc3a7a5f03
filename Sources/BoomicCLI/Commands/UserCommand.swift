import ArgumentParser
import BoomicAccounts
import BoomicLibrary
import Foundation

/// `boomic user …`: the accounts that log in to `boomic serve --http`, kept beside the library
/// in `users.json` and `users.key` (Documentation/accounts.md), outside its log: `undo` and
/// `rollback` never touch them.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and remove the accounts of the HTTP server, and their API keys.",
        discussion: """
            Accounts live beside the library in users.json (passwords encrypted with the key in \
            users.key; both mode 0600), not in its log: undo and rollback never change them, \
            export never carries them, backup copies them. A password is asked on a terminal, \
            else read from the first line of standard input. See Documentation/accounts.md.
            """,
        subcommands: [Add.self, List.self, Remove.self, Passwd.self, UserKeyCommand.self]
    )

    /// The accounts of the library at `options`, which must exist: accounts belong to a library.
    static func accounts(_ options: LibraryOptions) throws -> Accounts {
        let location = options.location
        guard FileManager.default.fileExists(atPath: location + "/" + LibrarySession.logName) else {
            throw CLIError("no library at \(location); run 'boomic init' or 'boomic import DIR' first, or pass --library")
        }
        return Accounts(folder: location)
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an account (the password is asked, or read from standard input's first line).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The account's name: letters, digits, '.', '_', '-', '@'.") var name: String

        func run() throws {
            let accounts = try UserCommand.accounts(options)
            // Checked before asking: a taken name must not cost typing a password twice.
            if try accounts.users().contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw AccountError.userExists(name)
            }
            let user = try accounts.add(name: name, password: UserPassword.read(for: name))
            Out.line("Added account \(Terminal.printable(user.name)).")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the accounts.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions

        struct Row: Encodable {
            var name: String
            var created: String
            /// How many API keys it has.
            var keys: Int
        }

        func run() throws {
            let users = try UserCommand.accounts(options).users()
            if output.json {
                try JSONOut.printArray(users.map {
                    Row(name: $0.name, created: Formatting.isoDate($0.created.timeIntervalSince1970), keys: $0.keys.count)
                })
                return
            }
            if users.isEmpty { Out.line("No accounts yet; 'boomic user add NAME' makes one."); return }
            let width = users.map(\.name.count).max() ?? 0
            for u in users {
                let padded = u.name + String(repeating: " ", count: width - u.name.count)
                Out.line("\(Terminal.bold(Terminal.printable(padded)))  "
                         + Terminal.dim("\(Formatting.count(u.keys.count, "API key")), added \(Formatting.localTime(u.created.timeIntervalSince1970))"))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove an account and its API keys (not in the log: undo does not bring it back).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The account's name.") var name: String

        func run() throws {
            let user = try UserCommand.accounts(options).remove(name: name)
            // Their bookmarks and saved play queue are theirs alone: a new account of that name
            // starts without them.
            do {
                try ListenerStateStore(libraryLocation: options.location).forget(user.name)
            } catch {
                Terminal.warn("boomic: the account is removed, but its bookmarks and play queue stay: \(error.localizedDescription)")
            }
            Out.line("Removed account \(Terminal.printable(user.name)) and its \(Formatting.count(user.keys.count, "API key")).")
        }
    }

    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd",
            abstract: "Change an account's password (asked, or read from standard input's first line); its API keys stay.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The account's name.") var name: String

        func run() throws {
            let accounts = try UserCommand.accounts(options)
            guard let user = try accounts.users().first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw AccountError.unknownUser(name)
            }
            try accounts.setPassword(name: user.name, password: UserPassword.read(for: user.name))
            Out.line("Changed the password of \(Terminal.printable(user.name)).")
        }
    }
}
