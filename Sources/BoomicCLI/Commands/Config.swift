import ArgumentParser
import BoomicLibrary
import BoomicPlayback
import BoomicStation
import Foundation

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the player's settings in force and where each comes from.",
        discussion: """
            The player's defaults (output, replaygain, preamp, replaygain_missing, eq, volume) are \
            built in, then read from $XDG_CONFIG_HOME/boomic/config.toml (~/.config/boomic/config.toml); \
            `boomic play` flags override them. See Documentation/playback.md, "Defaults".
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let path = PlayerConfig.defaultPath()
        let config = try PlayerConfig.load(path: path)
        // An eq naming no preset, file or bands may be one of the library's saved profiles:
        // only then is it looked up in the library, as `play` would, so a config without one
        // reads even when the library cannot be opened.
        do {
            _ = try config.equalizer(savedProfile: { _ in nil })
        } catch {
            guard FileManager.default.fileExists(atPath: options.location + "/" + LibrarySession.logName) else { throw error }
            let lib = try Library.open(at: options.location, create: false)
            _ = try config.equalizer(savedProfile: EQCommand.savedProfile(in: lib.basis))
        }
        if output.json {
            let rows = config.rows.map { ["key": $0.key, "value": $0.value, "source": $0.source.description] }
            let data = try JSONSerialization.data(withJSONObject: ["file": path, "settings": rows], options: [.sortedKeys, .withoutEscapingSlashes])
            Out.bytes(data)
            Out.line()
            return
        }
        let exists = FileManager.default.fileExists(atPath: path)
        Out.line(Terminal.dim("config file: \(path)\(exists ? "" : " (none: built-in defaults)")"))
        let width = config.rows.map(\.key.count).max() ?? 0
        let valueWidth = config.rows.map(\.value.count).max() ?? 0
        for row in config.rows {
            let key = row.key.padding(toLength: width, withPad: " ", startingAt: 0)
            let value = Terminal.printable(row.value).padding(toLength: valueWidth, withPad: " ", startingAt: 0)
            Out.line("\(key)  \(value)  \(Terminal.dim(row.source.description))")
        }
    }
}
