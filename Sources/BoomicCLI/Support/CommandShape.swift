import ArgumentParser
import BoomicSystem
import Foundation

/// What argument rewriting needs to know of a command, read from the command's own
/// swift-argument-parser definitions (the ToolInfo JSON of `_dumpHelp()`, which
/// `--experimental-dump-help` prints) instead of a list kept by hand beside them: such a list
/// drifted (it lacked `-o` and named a `--repeat` no command has).
///
/// Dumping a command's definitions costs about 4 ms, a tenth of a small command's whole run, so
/// the shapes are dumped once, by `scripts/make-command-shapes`, into `known`; a debug build run
/// with `BOOMIC_TEST_COMMAND_SHAPES` set (`CommandShapeTableTests` runs every command so) dumps
/// the command it runs as well and stops if the two differ, and a command missing from `known`
/// is dumped. The other processes of a test run skip that dump: in a debug build it was a sixth
/// of a small command's run, repeated in thousands of processes.
struct CommandShape {
    /// The command's name, as `help` and usage messages spell it.
    var name: String
    /// Spellings of the options that take a value (`--format`, `-f`): the next argument is theirs.
    var valued: Set<String>
    /// Each of those spellings' long one (`-f` → `--format`), which takes a value joined by `=`.
    var long: [String: String]
    /// Positional arguments before the trailing terms (`playlist add NAME QUERY…` has one).
    var leadingPositionals: Int
    /// Whether main takes the trailing terms out before parsing (`TakesTerms`).
    var takesTerms: Bool
    /// The command's names from the root (`["playlist", "add"]`), as `known` files it.
    private var path: [String]
    private var subcommands: [String: ParsableCommand.Type]

    init(_ command: ParsableCommand.Type, path: [String] = []) {
        name = command._commandName
        self.path = path
        takesTerms = command is any TakesTerms.Type
        subcommands = [:]
        for sub in command.configuration.subcommands {
            subcommands[sub._commandName] = sub
            for alias in sub.configuration.aliases { subcommands[alias] = sub }
        }
        valued = []
        long = [:]
        leadingPositionals = 0
        // A command with subcommands takes no positionals here, and dumping it would describe
        // its whole tree: only the commands actually run are read.
        guard subcommands.isEmpty else { return }
        let key = path.joined(separator: " ")
        let known = Self.known[key]
        #if DEBUG
        if Environment.value("BOOMIC_TEST_COMMAND_SHAPES") != nil {
            let dumped = Self.dumped(command)
            if let known, known.valued != dumped.valued || known.leadingPositionals != dumped.leadingPositionals {
                preconditionFailure("CommandShapes.swift is stale for `\(key)`: run scripts/make-command-shapes")
            } else if known == nil, !key.isEmpty {
                preconditionFailure("CommandShapes.swift lacks `\(key)`: run scripts/make-command-shapes")
            }
        }
        #endif
        let shape = known ?? Self.dumped(command)
        for (spelling, longest) in shape.valued {
            valued.insert(spelling)
            long[spelling] = longest
        }
        leadingPositionals = shape.leadingPositionals
    }

    /// The command's shape as its definitions give it.
    private static func dumped(_ command: ParsableCommand.Type) -> (valued: [String: String?], leadingPositionals: Int) {
        let info: ToolInfo
        do {
            info = try JSONDecoder().decode(ToolInfo.self, from: Data(command._dumpHelp().utf8))
        } catch {
            preconditionFailure("swift-argument-parser's help dump of \(command._commandName) does not decode: \(error)")
        }
        var valued: [String: String?] = [:]
        var leading = 0
        for argument in info.command.arguments ?? [] {
            switch argument.kind {
            case "option":
                let spellings = (argument.names ?? []).map { ($0.kind == "long" ? "--" : "-") + $0.name }
                let longest = spellings.first { $0.hasPrefix("--") }
                for spelling in spellings { valued[spelling] = longest }
            case "positional":
                if !argument.isRepeating { leading += 1 }
            default:
                break
            }
        }
        return (valued, leading)
    }

    /// The subcommand the argument names, if this command has one of that name.
    func subcommand(_ name: String) -> CommandShape? {
        subcommands[name].map { CommandShape($0, path: path + [$0._commandName]) }
    }

    /// The part of ArgumentParserToolInfo's `ToolInfoV0` that the shape needs.
    private struct ToolInfo: Decodable {
        struct Command: Decodable { var arguments: [Argument]? }
        struct Argument: Decodable {
            var kind: String
            var isRepeating: Bool
            var names: [Name]?
        }
        struct Name: Decodable { var kind: String; var name: String }
        var command: Command
    }
}

/// A command whose trailing positional values (a query, assignments, clauses) `main` takes out
/// before swift-argument-parser sees them and hands over after: the parser's bookkeeping of
/// parsed values costs time quadratic in their number (20,000 terms take over 20 s).
protocol TakesTerms: ParsableCommand {
    var terms: [String] { get set }
    /// Checks that need the terms: `validate()` runs while parsing, before they are handed over.
    func validateTerms() throws
}

extension TakesTerms {
    func validateTerms() throws {}
}
