import BoomicCore
import BoomicSystem
import Foundation

/// Where the library is: the folder given (`--library`), else `$BOOMIC_LIBRARY`, else the XDG data
/// folder (`$XDG_DATA_HOME/boomic`, `~/.local/share/boomic`). Every front finds it the same way.
public enum LibraryLocation {
    public static func resolve(given: String?, environment: (String) -> String? = Environment.value) -> String {
        if let l = given ?? environment("BOOMIC_LIBRARY"), !l.isEmpty { return Paths.absolute(l) }
        let data = environment("XDG_DATA_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment("HOME") ?? NSHomeDirectory()) + "/.local/share"
        return Paths.absolute(data) + "/boomic"
    }
}

/// Paths as users type them, made absolute.
public enum Paths {
    /// Absolute, with `~`, `.` and `..` resolved by text only: symbolic links are kept, as the
    /// scan keeps them in song paths (M3U paths must meet those).
    public static func textual(_ p: String) -> String {
        let p = (p as NSString).expandingTildeInPath
        return M3U.normalized(p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p)
    }

    /// The music folders given to `init` or `import`, absolute, each checked to exist. Checked
    /// before a library is created or a folder remembered: a typo must leave nothing behind, and
    /// `''` (an unset variable) would otherwise mean the current folder.
    public static func musicFolders(_ given: [String]) throws -> [String] {
        if given.contains(where: \.isEmpty) {
            throw LibraryError("a music folder given is empty (''); name the folder, or '.' for the current one")
        }
        // Spelled as given, links kept (`textual`), as beets and MPD keep a music folder: with
        // several folders each is named after its last part, and `~/Music`, a link to a NAS,
        // is `Music`, not the name of the NAS's folder.
        let paths = given.map(textual)
        try requireExisting(paths)
        return paths
    }

    public static func requireExisting(_ folders: [String]) throws {
        for f in folders where !FileManager.default.fileExists(atPath: f) {
            throw LibraryError("music folder \(f) does not exist; check the path, or mount it and try again")
        }
    }

    public static func absolute(_ p: String) -> String {
        var p = (p as NSString).expandingTildeInPath
        if !p.hasPrefix("/") { p = FileManager.default.currentDirectoryPath + "/" + p }
        return (p as NSString).standardizingPath
    }
}

