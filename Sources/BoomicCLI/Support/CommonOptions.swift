import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

/// Where the library is: `--library`, else `$BOOMIC_LIBRARY`, else the XDG data folder.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library folder.", valueName: "DIR"))
    var library: String?

    /// An empty `--library ''` (a script's unset variable) would silently mean the default library.
    func validate() throws {
        if library?.isEmpty == true { throw ValidationError(Self.emptyLibrary) }
    }

    static let emptyLibrary = "--library needs a folder, and '' is empty; leave the option out for the default library"

    var location: String { LibraryLocation.resolve(given: library) }
}

/// Options every changing command takes.
struct ChangeOptions: ParsableArguments {
    @Option(name: [.short, .customLong("message")], help: "Why: kept in the transaction's provenance.")
    var message: String?
}

/// Options every listing command takes.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON array on stdout.")
    var json = false
}

/// Options of every command that shows a change before making it.
struct ConfirmOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Don't ask for confirmation.")
    var yes = false
    @Flag(help: "Show what would change and change nothing.")
    var dryRun = false
}

/// `--as-of REF` and `--view TAGLIST`, for every command that reads the library.
struct ReadOptions: ParsableArguments {
    @Option(name: .customLong("as-of"), help: ArgumentHelp("Show the library as it was at REF (a number, HEAD~N, an id prefix or a date).", valueName: "REF"))
    var asOf: String?
    @Option(help: ArgumentHelp("Show the library as if only the songs of this taglist existed (a TagView).", valueName: "TAGLIST"))
    var view: String?
}
