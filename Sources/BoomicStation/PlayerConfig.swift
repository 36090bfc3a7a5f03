import BoomicAudio
import BoomicCore
import BoomicPlayback
import BoomicSystem
import Foundation
import TOMLKit

/// The player's defaults: built in, then `$XDG_CONFIG_HOME/boomic/config.toml`, then the
/// command line, each value remembering where it came from so that `boomic config` can say.
///
/// ```toml
/// output = "alsa:hw:0"
/// replaygain = "auto"
/// preamp = -3.0
/// replaygain_missing = -6.0
/// eq = "rock"
/// volume = 80
/// speed = 1.25
/// http = "127.0.0.1:4040"   # `boomic serve`'s HTTP front (off when absent)
/// http_base = "/music"      # the path it is served under behind a proxy
/// ```
public struct PlayerConfig: Sendable, Equatable {
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case builtIn
        case file(String)
        case commandLine

        public var description: String {
            switch self {
            case .builtIn: "built in"
            case let .file(path): path
            case .commandLine: "command line"
            }
        }
    }

    public struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var source: Source

        /// The value given on the command line, when it was.
        public mutating func override(_ given: Value?) {
            if let given { self = Setting(value: given, source: .commandLine) }
        }
    }

    public var output = Setting(value: "alsa", source: .builtIn)
    public var replaygain = Setting(value: "off", source: .builtIn)
    public var preamp = Setting(value: 0.0, source: .builtIn)
    public var replaygainMissing = Setting(value: 0.0, source: .builtIn)
    public var eq = Setting(value: "off", source: .builtIn)
    public var volume = Setting(value: 100, source: .builtIn)
    /// Tempo, pitch unchanged (`--speed`); an audiobook resumed from its bookmark plays at the
    /// speed it was left at unless `--speed` is given.
    public var speed = Setting(value: 1.0, source: .builtIn)
    /// `boomic serve`'s HTTP front, `[ADDRESS:]PORT` as `--http` takes it; "" is off. Checked
    /// by the front, which knows the syntax (`HTTPAddress`).
    public var http = Setting(value: "", source: .builtIn)
    /// The path the HTTP front is served under (`--http-base`); "" is the root.
    public var httpBase = Setting(value: "", source: .builtIn)

    /// The line of the file each key given there is on, for messages about its value.
    public var lines: [String: Int] = [:]

    public static let keys = ["output", "replaygain", "preamp", "replaygain_missing", "eq", "volume", "speed", "http", "http_base"]
    public static let replayGainModes = ["off", "track", "album", "auto"]

    public init() {}

    /// Where the file is looked for: `$XDG_CONFIG_HOME/boomic/config.toml`, else
    /// `~/.config/boomic/config.toml`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/boomic/config.toml"
    }

    /// The defaults with the file's values over them; no file is no error, but a file that is
    /// there and cannot be read (no permission, a folder, a device, a FIFO) is: the player would
    /// otherwise run at the built-in volume on the built-in device without a word.
    public static func load(path: String = defaultPath()) throws(ConfigError) -> PlayerConfig {
        var config = PlayerConfig()
        guard let bytes = try contents(of: path) else { return config }
        func lineAt(_ offset: Int) -> Int { bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } }
        // TOML forbids both; the parser reads a C string, so a NUL would end the file there unseen.
        if let nul = bytes.firstIndex(of: 0) {
            throw ConfigError(path: path, key: nil, line: lineAt(nul), reason: "holds a NUL byte, which TOML does not allow; is it a text file?")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let bad = bytes.indices.first { String(validating: bytes[..<$0], as: UTF8.self) == nil } ?? bytes.count
            throw ConfigError(path: path, key: nil, line: lineAt(max(0, bad - 1)), reason: "is not UTF-8 text, which TOML requires")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(path: path, key: nil, reason: "not TOML: \(error.description) (line \(error.source.begin.line))")
        } catch {
            throw ConfigError(path: path, key: nil, reason: "not TOML: \(error)")
        }
        let source = Source.file(path)
        for key in table.keys.sorted() {
            let value = table[key]!
            let line = Self.line(of: key, in: text)
            config.lines[key] = line
            func bad(_ reason: String) -> ConfigError { ConfigError(path: path, key: key, line: line, reason: reason) }
            switch key {
            case "output":
                guard let s = value.string else { throw bad("takes a string such as \"alsa\", \"alsa:DEVICE\", \"null\" or \"wav:FILE\"") }
                do { _ = try SinkSpec(parsing: s) } catch { throw bad(error.description) }
                config.output = Setting(value: s, source: source)
            case "replaygain":
                guard let s = value.string, replayGainModes.contains(s.lowercased()) else { throw bad("takes off, track, album or auto") }
                config.replaygain = Setting(value: s.lowercased(), source: source)
            case "preamp", "replaygain_missing":
                guard let db = value.double ?? value.int.map(Double.init), db.isFinite, abs(db) <= 60 else {
                    throw bad("takes a number of dB between -60 and 60")
                }
                if key == "preamp" { config.preamp = Setting(value: db, source: source) } else { config.replaygainMissing = Setting(value: db, source: source) }
            case "eq":
                guard let s = value.string else { throw bad("takes a string: a preset, a saved profile, a file or bands such as \"60=+3,1k=-2\"") }
                // What can be told without the library: a name may still be a saved profile.
                if s.lowercased() != "off" {
                    do { _ = try EQSpec.resolve(s, savedProfile: { _ in nil }) } catch let error as EQSpecError {
                        switch error {
                        case .unknown, .unreadableFile: break
                        default: throw bad("\"\(OneLine.excerpt(s, around: 0))\": \(error.message)")
                        }
                    } catch {
                        throw bad("\"\(OneLine.excerpt(s, around: 0))\": \(error.localizedDescription)")
                    }
                }
                config.eq = Setting(value: s, source: source)
            case "volume":
                guard let v = value.int, (0...100).contains(v) else { throw bad("takes a whole number from 0 to 100") }
                config.volume = Setting(value: v, source: source)
            case "speed":
                guard let x = value.double ?? value.int.map(Double.init), TempoStretcher.range.contains(x) else {
                    throw bad("takes a number from 0.5 to 2.0")
                }
                config.speed = Setting(value: x, source: source)
            case "http":
                guard let s = value.string else { throw bad("takes a string such as \"4040\" or \"127.0.0.1:4040\"") }
                config.http = Setting(value: s, source: source)
            case "http_base":
                guard let s = value.string else { throw bad("takes a string such as \"/music\"") }
                config.httpBase = Setting(value: s, source: source)
            default:
                throw bad("is not a setting; the settings are \(keys.joined(separator: ", "))")
            }
        }
        return config
    }

    /// The equalizer in force, nil when off; `savedProfile` answers the library's saved
    /// profiles. An `eq` from the file that resolves to nothing is a `ConfigError` naming the
    /// file, the line and the key; from the command line, the resolver's error as it is (the
    /// caller names its flag).
    public func equalizer(savedProfile: (String) throws -> EQSpec?) throws -> EQSpec? {
        guard eq.value.lowercased() != "off" else { return nil }
        do {
            return try EQSpec.resolve(eq.value, savedProfile: savedProfile)
        } catch {
            guard case let .file(path) = eq.source else { throw error }
            throw ConfigError(path: path, key: "eq", line: lines["eq"],
                              reason: "\"\(OneLine.excerpt(eq.value, around: 0))\": \(error.localizedDescription)")
        }
    }

    /// The file's bytes; nil when there is no file. Opened as every file Boomic reads is
    /// (`FileDescriptor.openRegular`): never waiting (a FIFO would wait for a writer forever) and
    /// read only when it is a regular file.
    static func contents(of path: String) throws(ConfigError) -> [UInt8]? {
        func unusable(_ reason: String) -> ConfigError {
            ConfigError(path: path, key: nil, reason: reason + "; the player's defaults are read from it, so fix or remove it")
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openRegular(path)
        } catch {
            if error.isNotFound { return nil }
            throw unusable("cannot be read: \(error.reason)")
        }
        do {
            return try fd.readAll(limit: 1 << 20)
        } catch {
            throw unusable(error.isFileTooLarge ? "is larger than 1 MiB" : "cannot be read: \(error.reason)")
        }
    }

    /// The line of a top-level `key = …` (bare or quoted) in `text`.
    static func line(of key: String, in text: String) -> Int? {
        let forms = [key, "\"\(key)\"", "'\(key)'"]
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            for form in forms where trimmed.hasPrefix(form)
                && trimmed.dropFirst(form.count).drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("=") {
                return i + 1
            }
        }
        return nil
    }

    /// Every setting in force, for `boomic config`.
    public var rows: [(key: String, value: String, source: Source)] {
        [("output", output.value, output.source), ("replaygain", replaygain.value, replaygain.source),
         ("preamp", Self.decibels(preamp.value), preamp.source),
         ("replaygain_missing", Self.decibels(replaygainMissing.value), replaygainMissing.source),
         ("eq", eq.value, eq.source), ("volume", String(volume.value), volume.source),
         ("speed", Self.speed(speed.value), speed.source),
         ("http", http.value.isEmpty ? "off" : http.value, http.source),
         ("http_base", httpBase.value.isEmpty ? "/" : httpBase.value, httpBase.source)]
    }

    /// `1.25×`: a speed as the status line and `boomic config` show it.
    public static func speed(_ x: Double) -> String { String(format: "%g×", x) }

    static func decibels(_ db: Double) -> String { String(format: "%+.1f dB", db) }
}

/// A config file that cannot be used: one line naming the file, the line and the key.
public struct ConfigError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    public let path: String
    public let key: String?
    public let line: Int?
    public let reason: String

    public init(path: String, key: String?, line: Int? = nil, reason: String) {
        self.path = path
        self.key = key
        self.line = line
        self.reason = reason
    }

    /// `/home/a/.config/boomic/config.toml:3: eq "loud": no EQ preset …`.
    public var description: String {
        "\(path)" + (line.map { ":\($0)" } ?? "") + ": " + (key.map { "\($0) \(reason)" } ?? reason)
    }
    public var errorDescription: String? { description }
}
