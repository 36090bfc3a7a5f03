import ArgumentParser
import BoomicCore
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

    var location: String {
        let env = ProcessInfo.processInfo.environment
        if let l = library ?? env["BOOMIC_LIBRARY"], !l.isEmpty { return Paths.absolute(l) }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return Paths.absolute(data) + "/boomic"
    }
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

enum Paths {
    /// Absolute, with `~`, `.` and `..` resolved by text only: symbolic links are kept, as the
    /// scan keeps them in song paths (M3U paths must meet those).
    static func textual(_ p: String) -> String {
        let p = (p as NSString).expandingTildeInPath
        return M3U.normalized(p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p)
    }

    /// The music folders given to `init` or `import`, absolute, each checked to exist. Checked
    /// before a library is created or a folder remembered: a typo must leave nothing behind, and
    /// `''` (an unset variable) would otherwise mean the current folder.
    static func musicFolders(_ given: [String]) throws -> [String] {
        if given.contains(where: \.isEmpty) {
            throw CLIError("a music folder given is empty (''); name the folder, or '.' for the current one")
        }
        let paths = given.map(absolute)
        try requireExisting(paths)
        return paths
    }

    static func requireExisting(_ folders: [String]) throws {
        for f in folders where !FileManager.default.fileExists(atPath: f) {
            throw CLIError("music folder \(f) does not exist; check the path, or mount it and try again")
        }
    }

    static func absolute(_ p: String) -> String {
        var p = (p as NSString).expandingTildeInPath
        if !p.hasPrefix("/") { p = FileManager.default.currentDirectoryPath + "/" + p }
        return (p as NSString).standardizingPath
    }
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
