import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

/// `boomic migrate mpd [MPD.CONF]`: MPD's stickers and stored playlists into the library.
struct MigrateMPD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpd",
        abstract: "Bring in MPD's stickers (ratings, play counts, favorites, clients' own) and stored playlists.",
        discussion: """
            Reads mpd.conf (given, else where MPD looks: $XDG_CONFIG_HOME/mpd/mpd.conf, ~/.mpdconf, \
            ~/.mpd/mpd.conf, /etc/mpd.conf) for music_directory, sticker_file and playlist_directory; \
            MPD's files are only read, and mpd may be running. The songs must be in the library \
            already ('boomic import MUSIC_DIRECTORY' first): stickers and entries of songs it \
            does not hold are reported and skipped. One transaction of kind migrate; a second run \
            adds nothing twice.
            """)

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @Flag(help: "Print the report as one JSON object on stdout.") var json = false
    @Flag(help: "Give an existing playlist of the same name MPD's entries (skipped otherwise).") var replace = false
    @Flag(help: "Show what would be carried and change nothing.") var dryRun = false
    @Argument(help: "MPD's configuration file; default: the one MPD itself would read.", completion: .file())
    var config: String?

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        let file = try config.map(Paths.textual) ?? MPDConfig.locate(environment: env)
        let conf = try MPDConfig.load(file, environment: env)
        let lib = try Library.open(at: options.location, create: false)
        let r = try MPDMigrateFlow.run(lib, config: conf, replace: replace, dryRun: dryRun, message: change.message)
        if json {
            Out.line(String(decoding: try JSONOut.encoder().encode(Report(r, dryRun: dryRun)), as: UTF8.self))
        } else {
            for line in Self.problems(r) { Terminal.warn(line) }
            Out.line(Self.summary(r, dryRun: dryRun))
        }
    }

    /// The one line of what was carried.
    static func summary(_ r: MPDMigrateFlow.Result, dryRun: Bool) -> String {
        let o = r.outcome
        let made = o.playlists.filter { $0.fate == .created }.count, replaced = o.playlists.filter { $0.fate == .replaced }.count
        var what = "\(Formatting.count(o.stickersCarried, "sticker")) carried, \(Formatting.count(o.songsChanged, "song")) changed, "
            + "\(Formatting.count(made, "playlist")) made" + (replaced > 0 ? ", \(replaced) replaced" : "")
        if o.assertions.isEmpty { what = "nothing new: MPD's stickers and playlists are in the library as they are" }
        if dryRun { return "Would migrate from \(r.config.file): \(what) (dry run, nothing changed)." }
        guard let seq = r.seq else { return "Migrated from \(r.config.file): \(what)." }
        let undo = o.changesPlays ? "; it sets play counts, so 'boomic undo --plays' takes it back" : ""
        return "Migrated from \(r.config.file): \(what) (transaction \(seq)\(undo))."
    }

    /// A line for each thing not carried, as it goes to stderr.
    static func problems(_ r: MPDMigrateFlow.Result) -> [String] {
        let o = r.outcome, shown = 5
        var lines: [String] = []
        if r.config.stickerFile == nil { lines.append("\(r.config.file) sets no sticker_file: MPD keeps no stickers to bring in") }
        if r.config.playlistDirectory == nil { lines.append("\(r.config.file) sets no playlist_directory: MPD keeps no stored playlists to bring in") }
        for path in r.absent { lines.append("\(path), named in \(r.config.file), does not exist: nothing to bring in from it") }
        if !o.notInLibrary.isEmpty {
            let first = o.notInLibrary.prefix(shown).map { "'\($0)'" }.joined(separator: ", ")
            lines.append("skipped \(Formatting.count(o.stickersNotInLibrary, "sticker")) of \(Formatting.count(o.notInLibrary.count, "song")) not in the library "
                         + "(\(first)\(o.notInLibrary.count > shown ? ", …" : "")); 'boomic import \(r.config.musicDirectory)' brings them in")
        }
        for x in o.refused { lines.append("skipped sticker \(x.name)=\(x.value) on '\(x.uri)': \(x.reason)") }
        for (type, n) in o.otherTypes.sorted(by: { $0.key < $1.key }) {
            lines.append("skipped \(Formatting.count(n, "sticker")) of type \(type): Boomic keeps stickers on songs only")
        }
        for p in o.playlists {
            if let reason = p.reason { lines.append("skipped playlist '\(p.name)': \(reason)") }
            if p.fate != .skipped, !p.missing.isEmpty {
                let first = p.missing.prefix(shown).joined(separator: ", ")
                lines.append("playlist '\(p.name)': left out \(p.missing.count) \(p.missing.count == 1 ? "entry" : "entries") not in the library (\(first)\(p.missing.count > shown ? ", …" : ""))")
            }
        }
        for u in r.unreadablePlaylists { lines.append("skipped a playlist: \(u)") }
        return lines
    }

    /// `--json`: the whole report, every skipped item listed.
    struct Report: Encodable {
        struct Config: Encodable {
            var file: String, music_directory: String, playlist_directory: String?, sticker_file: String?, db_file: String?
        }
        struct Refused: Encodable { var uri: String, name: String, value: String, reason: String }
        struct Playlist: Encodable { var name: String, fate: String, songs: Int, missing: [String], reason: String? }
        var config: Config
        var dry_run: Bool
        var transaction: Int?
        var stickers_carried: Int
        var songs_changed: Int
        var not_in_library: [String]
        var stickers_not_in_library: Int
        var refused: [Refused]
        var other_types: [String: Int]
        var playlists: [Playlist]
        var unreadable_playlists: [String]
        var absent: [String]

        init(_ r: MPDMigrateFlow.Result, dryRun: Bool) {
            let c = r.config, o = r.outcome
            config = Config(file: c.file, music_directory: c.musicDirectory, playlist_directory: c.playlistDirectory,
                            sticker_file: c.stickerFile, db_file: c.dbFile)
            dry_run = dryRun
            transaction = r.seq
            stickers_carried = o.stickersCarried
            songs_changed = o.songsChanged
            not_in_library = o.notInLibrary
            stickers_not_in_library = o.stickersNotInLibrary
            refused = o.refused.map { Refused(uri: $0.uri, name: $0.name, value: $0.value, reason: $0.reason) }
            other_types = o.otherTypes
            playlists = o.playlists.map { Playlist(name: $0.name, fate: $0.fate.rawValue, songs: $0.songs, missing: $0.missing, reason: $0.reason) }
            unreadable_playlists = r.unreadablePlaylists
            absent = r.absent
        }
    }
}
