import BoomicSystem
import Foundation

/// Where a beets library is, found as beets finds it: its database and its music folder.
///
/// beets reads `config.yaml` in its configuration folder: `$BEETSDIR` when set, else
/// `$XDG_CONFIG_HOME/beets`, else `~/.config/beets`. `library:` names the database (default
/// `library.db`) and `directory:` the music folder (default `~/Music`), each relative to that
/// folder unless absolute, `~` expanded. A database given on the command line replaces
/// `library:`; `directory:` still comes from the configuration, since beets 2.x keeps item
/// paths relative to it.
public struct BeetsLocation: Equatable, Sendable {
    public var database: String
    public var directory: String
    /// The configuration file read, nil when there is none.
    public var config: String?

    public init(database: String, directory: String, config: String? = nil) {
        self.database = database
        self.directory = directory
        self.config = config
    }

    /// - Parameters:
    ///   - database: the `LIBRARY.DB` argument, if given (relative to `cwd`).
    ///   - environment: the process's (`BEETSDIR`, `XDG_CONFIG_HOME`, `HOME`).
    public static func find(database: String?, environment: [String: String], cwd: String) throws -> BeetsLocation {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let configDir: String
        if let dir = environment["BEETSDIR"], !dir.isEmpty {
            configDir = absolute(expand(dir, home: home), in: cwd)
        } else if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configDir = xdg + "/beets"
        } else {
            configDir = home + "/.config/beets"
        }
        let configFile = configDir + "/config.yaml"
        var settings: [String: String] = [:]
        var found: String?
        if let fd = try? FileDescriptor.openRegular(configFile) {
            defer { try? fd.close() }
            let bytes = (try? fd.readAll(limit: 1 << 20)) ?? []
            settings = topLevelSettings(String(decoding: bytes, as: UTF8.self))
            found = configFile
        }
        let db = database.map { absolute($0, in: cwd) }
            ?? absolute(expand(settings["library"] ?? "library.db", home: home), in: configDir)
        let dir = absolute(expand(settings["directory"] ?? "~/Music", home: home), in: configDir)
        if database == nil, !FileManager.default.fileExists(atPath: db) {
            throw LibraryError("no beets library at \(db)" + (found == nil ? " (no \(configFile) names another)" : " (named by \(configFile))")
                + "; give its path: boomic migrate beets LIBRARY.DB")
        }
        return BeetsLocation(database: db, directory: normalized(dir), config: found)
    }

    /// The top-level `key: value` pairs of a YAML file, values unquoted: all beets' two keys
    /// need (they are plain scalars at the top level of its configuration).
    static func topLevelSettings(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            guard let first = raw.first, first != " ", first != "\t", first != "#", first != "-",
                  let colon = raw.firstIndex(of: ":") else { continue }
            let key = raw[..<colon].trimmingCharacters(in: .whitespaces)
            var value = raw[raw.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let q = value.first, q == "\"" || q == "'", let end = value.dropFirst().firstIndex(of: q) {
                value = String(value[value.index(after: value.startIndex)..<end])
            } else if let hash = value.range(of: " #") {
                value = value[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            if !value.isEmpty { out[key] = value }
        }
        return out
    }

    static func expand(_ path: String, home: String) -> String {
        path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
    }

    static func absolute(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : folder + "/" + path
    }

    /// Without a trailing slash, `.` or `..` (as beets' `normpath` keeps it).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
