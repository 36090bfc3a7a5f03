import BoomicCore
import BoomicStore
import BoomicSystem
import Foundation

/// `boomic migrate mpd`: MPD's stickers and stored playlists into the library, as one
/// transaction of kind `migrate` (`MPDMigration` makes its assertions).
///
/// MPD's files are only read: the sticker database is opened read-only (a running `mpd` may
/// be writing it), the playlist files through `FileDescriptor.openRegular`.
public enum MPDMigrateFlow {
    public struct Result: Sendable {
        public var config: MPDConfig
        public var outcome: MPDMigration.Outcome
        /// The transaction committed; nil when there was nothing to carry (or a dry run).
        public var seq: Int?
        /// Playlist files that could not be read, each with why.
        public var unreadablePlaylists: [String]
        /// The files mpd.conf names that are not there (MPD makes them on its first start): so
        /// there are no stickers, or no stored playlists, to bring in.
        public var absent: [String] = []
    }

    /// Reads what MPD holds, generates on the latest basis and commits (unless `dryRun`).
    public static func run(_ lib: LibrarySession, config: MPDConfig, replace: Bool, dryRun: Bool,
                           message: String?) throws -> Result {
        let there: (String?) -> String? = { $0.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil } }
        let absent = [config.stickerFile, config.playlistDirectory].compactMap { $0 }.filter { there($0) == nil }
        let stickers = try there(config.stickerFile).map(readStickers) ?? []
        var unreadable: [String] = []
        let playlists = try there(config.playlistDirectory).map { try readPlaylists($0, music: config.musicDirectory, unreadable: &unreadable) } ?? []
        var folders = [config.musicDirectory]
        if let real = SystemCall.realPath(config.musicDirectory), real != config.musicDirectory { folders.append(real) }
        // A library without MPD's music would report every sticker and entry as missing: the
        // music comes first, by an import of its own (its own transaction to undo).
        if !stickers.isEmpty || !playlists.isEmpty,
           !lib.basis.songs.values.contains(where: { s in folders.contains { s.path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") } }) {
            throw LibraryError("the library has no song in MPD's music_directory \(config.musicDirectory); run 'boomic import \(config.musicDirectory)' first, then migrate")
        }
        func generate(_ basis: DataBasis) -> MPDMigration.Outcome {
            MPDMigration.generate(basis, musicDirectories: folders, stickers: stickers, playlists: playlists,
                                  replace: replace, newListID: { ListID(UUID()) })
        }
        if dryRun {
            return Result(config: config, outcome: generate(lib.basis), seq: nil, unreadablePlaylists: unreadable, absent: absent)
        }
        try lib.requireWritable()
        var outcome = MPDMigration.Outcome()
        let committed = try lib.commit(kind: .migrate, message: message) { basis in
            outcome = generate(basis)
            guard !outcome.assertions.isEmpty else { return nil }
            let made = outcome.playlists.filter { $0.fate == .created || $0.fate == .replaced }.count
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            return (outcome.assertions, "migrate mpd: \(count(outcome.songsChanged, "song")), \(count(made, "playlist"))")
        }
        return Result(config: config, outcome: outcome, seq: committed?.seq, unreadablePlaylists: unreadable, absent: absent)
    }

    /// Every row of MPD's `sticker` table, by URI and name.
    static func readStickers(_ path: String) throws -> [MPDMigration.StickerRow] {
        let notStickers = LibraryError("\(path) is not MPD's sticker database (it has no table sticker(type, uri, name, value)); check sticker_file in mpd.conf")
        var rows: [MPDMigration.StickerRow] = []
        do {
            let db = try ReadOnlyDatabase(path: path)
            var columns = Set<String>()
            try db.forEachRow("PRAGMA table_info(sticker)") { row in
                if let name = row.first(where: { $0.name == "name" }), case .text(let n) = name.value { columns.insert(n) }
            }
            guard columns.isSuperset(of: ["type", "uri", "name", "value"]) else { throw notStickers }
            try db.forEachRow("SELECT type, uri, name, value FROM sticker ORDER BY uri, name, type") { c in
                rows.append(MPDMigration.StickerRow(type: c[0].value.text, uri: c[1].value.text,
                                                    name: c[2].value.text, value: c[3].value.text))
            }
        } catch let failure as ReadOnlyDatabaseError {
            throw LibraryError("cannot read MPD's sticker database: \(failure.localizedDescription); check sticker_file in mpd.conf")
        }
        return rows
    }

    /// The stored playlists: every `NAME.m3u` of the folder, by name, entries in order.
    /// Relative entries are relative to the music directory, as MPD writes them.
    static func readPlaylists(_ folder: String, music: String, unreadable: inout [String]) throws -> [MPDMigration.StoredPlaylist] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw LibraryError("cannot read MPD's playlist_directory \(folder): \((error as NSError).localizedDescription)")
        }
        return names.filter { $0.hasSuffix(".m3u") && $0.count > 4 }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .compactMap { name in
                let path = folder + "/" + name
                do {
                    let bytes = try FileDescriptor.openRegular(path).readAll(limit: 64 << 20)
                    // MPD writes UTF-8; a file written by hand in Latin-1 still reads.
                    let text = String(validating: bytes, as: UTF8.self) ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
                    return MPDMigration.StoredPlaylist(name: String(name.dropLast(4)),
                                                       entries: M3U.parse(text, base: music, trimming: true).paths)
                } catch {
                    unreadable.append(String(describing: error))
                    return nil
                }
            }
    }
}
