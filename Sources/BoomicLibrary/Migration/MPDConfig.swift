import BoomicCore
import BoomicSystem
import Foundation
import Glibc

/// The settings of an `mpd.conf` that `boomic migrate mpd` needs, read as MPD 0.23 reads them:
/// includes followed (relative to the including file's folder, wildcards expanded), a later
/// setting overriding an earlier one, and paths resolved by MPD's rules (`ParsePath`): `~` is
/// the home of the configured `user` (else the current user's), `~NAME` that user's, `$HOME`,
/// `$XDG_CONFIG_HOME`, `$XDG_MUSIC_DIR`, … the variable's folder, else the path must be absolute.
public struct MPDConfig: Sendable, Equatable {
    /// The file read (the top one, not its includes).
    public var file: String
    public var musicDirectory: String
    /// Nil when unset: MPD then keeps no stored playlists.
    public var playlistDirectory: String?
    /// Nil when unset: MPD then keeps no stickers.
    public var stickerFile: String?
    /// MPD's song database (`db_file`, or the `database` block's `path`); reported, not read.
    public var dbFile: String?

    /// Where MPD looks for its configuration when none is given, in its order
    /// (`src/CommandLine.cxx`): `$XDG_CONFIG_HOME/mpd/mpd.conf` (default `~/.config`),
    /// `~/.mpdconf`, `~/.mpd/mpd.conf`, then `/etc/mpd.conf`.
    public static func searchOrder(environment: [String: String]) -> [String] {
        let home = Self.home(environment: environment)
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        return [config + "/mpd/mpd.conf", home + "/.mpdconf", home + "/.mpd/mpd.conf", "/etc/mpd.conf"]
    }

    /// The first file of `searchOrder` that exists, as MPD picks it.
    public static func locate(environment: [String: String]) throws -> String {
        let order = searchOrder(environment: environment)
        guard let found = order.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw LibraryError("no mpd.conf found (looked in \(order.joined(separator: ", "))); name it: boomic migrate mpd PATH")
        }
        return found
    }

    /// Reads `path` and its includes.
    public static func load(_ path: String, environment: [String: String]) throws -> MPDConfig {
        var settings: [String: String] = [:]
        var blocks: [String: [String: String]] = [:]
        var depth = 0
        func read(_ file: String, optional: Bool) throws {
            depth += 1
            defer { depth -= 1 }
            // MPD does not detect an include that includes itself; ten levels is more than any real setup.
            guard depth <= 10 else { throw LibraryError("\(file): includes nest more than 10 deep; is a file including itself?") }
            let text: String
            do {
                let bytes = try FileDescriptor.openRegular(file).readAll(limit: 4 << 20)
                text = String(decoding: bytes, as: UTF8.self)
            } catch {
                if optional { return }
                throw LibraryError(error.description)
            }
            let entries: [MPDConfigText.Entry]
            do { entries = try MPDConfigText.parse(text) } catch {
                throw LibraryError("\(file) is not an mpd.conf MPD would read: \(error.description)")
            }
            let folder = (file as NSString).deletingLastPathComponent
            for entry in entries {
                switch entry {
                case .setting(let name, let value, _): settings[name] = value
                case .block(let name, let values, _): blocks[name] = values
                case .include(let pattern, let optional, _):
                    let full = pattern.hasPrefix("/") ? pattern : folder + "/" + pattern
                    let matches = glob(full)
                    if matches.isEmpty && !optional && !full.contains(where: { "*?[".contains($0) }) {
                        throw LibraryError("\(file) includes \(full), which does not exist")
                    }
                    for m in matches { try read(m, optional: optional) }
                }
            }
        }
        try read(path, optional: false)
        var env = environment
        if let user = settings["user"], let home = Self.home(of: user) { env["HOME"] = home }
        func resolved(_ name: String) throws -> String? {
            guard let value = settings[name] ?? (name == "db_file" ? blocks["database"]?["path"] : nil) else { return nil }
            do { return try Self.path(value, environment: env) } catch {
                throw LibraryError("\(path): \(name) \"\(value)\": \(error.message)")
            }
        }
        if let music = settings["music_directory"], M3U.isURL(music) {
            throw LibraryError("\(path): music_directory is \(music), not a local folder; Boomic's library is of local files")
        }
        guard let music = try resolved("music_directory") else {
            throw LibraryError("\(path) sets no music_directory, so its sticker and playlist URIs name no files; add it as MPD has it")
        }
        return MPDConfig(file: path, musicDirectory: M3U.normalized(music), playlistDirectory: try resolved("playlist_directory"),
                         stickerFile: try resolved("sticker_file"), dbFile: try resolved("db_file"))
    }

    /// A path value as MPD's `ParsePath` reads it.
    static func path(_ value: String, environment: [String: String]) throws(LibraryError) -> String {
        if value.hasPrefix("~") {
            let rest = value.dropFirst()
            let user = rest.prefix { $0 != "/" }
            let tail = rest.dropFirst(user.count)
            if user.isEmpty { return home(environment: environment) + tail }
            guard let home = home(of: String(user)) else { throw LibraryError("no such user: \(user)") }
            return home + tail
        }
        if value.hasPrefix("$") {
            let name = value.dropFirst().prefix { $0 != "/" }
            let tail = value.dropFirst(1 + name.count)
            guard let folder = variable(String(name), environment: environment) else {
                throw LibraryError("unknown variable $\(name)")
            }
            return folder + tail
        }
        guard value.hasPrefix("/") else { throw LibraryError("not an absolute path") }
        return value
    }

    /// The folders MPD's `$NAME` stands for (`src/config/Path.cxx`), by the XDG defaults.
    private static func variable(_ name: String, environment: [String: String]) -> String? {
        let home = home(environment: environment)
        func xdg(_ key: String, _ fallback: String) -> String {
            environment[key].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/" + fallback
        }
        switch name {
        case "HOME": return home
        case "XDG_CONFIG_HOME": return xdg(name, ".config")
        case "XDG_MUSIC_DIR": return xdg(name, "Music")
        case "XDG_DATA_HOME": return xdg(name, ".local/share")
        case "XDG_CACHE_HOME": return xdg(name, ".cache")
        case "XDG_STATE_HOME": return xdg(name, ".local/state")
        case "XDG_RUNTIME_DIR": return environment[name]
        default: return nil
        }
    }

    static func home(environment: [String: String]) -> String {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }

    private static func home(of user: String) -> String? {
        guard let pw = getpwnam(user), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// The files a pattern names, sorted, as MPD's `ListWildcard` finds them.
    private static func glob(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }
        return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }
}
