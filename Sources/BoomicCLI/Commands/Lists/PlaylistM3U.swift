import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

extension PlaylistCommand {
    struct ExportM3U: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a playlist as M3U8, to FILE or stdout.",
            discussion: """
                Paths are relative to FILE's folder when writing a file (so the two can move \
                together), absolute on stdout or with --absolute. Entries whose song was removed \
                from the library are left out, with a warning.
                """)
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Write absolute paths.") var absolute = false
        @Option(name: .customLong("as-of"), help: ArgumentHelp("The playlist as it was at REF.", valueName: "REF")) var asOf: String?
        @Argument(help: "The playlist's name.") var name: String
        @Argument(help: "The file to write (stdout when absent or '-').") var file: String?

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let basis = try lib.basis(asOf: asOf)
            let (_, playlist) = try PlaylistGeneration.find(name, in: basis)
            var entries: [M3U.Entry] = []
            var removed = 0
            for id in playlist.songs {
                guard let s = basis[id] else { removed += 1; continue }
                if s.path.contains(where: \.isNewline) { Terminal.warn("left out \(s.path.debugDescription): M3U cannot hold a path with a line break"); continue }
                let artist = s.artistCredit ?? s.artists.joined(separator: ", ")
                entries.append(M3U.Entry(path: s.path, duration: s.duration,
                                         title: artist.isEmpty ? (s.title ?? SongFormat.fileStem(s.path)) : "\(artist) - \(s.title ?? SongFormat.fileStem(s.path))"))
            }
            if removed > 0 { Terminal.warn("left out \(removed) entr\(removed == 1 ? "y" : "ies") whose song was removed from the library") }
            guard let file, file != "-" else {
                Out.line(String(M3U.render(name: playlist.name, entries: entries, relativeTo: nil).dropLast()))
                return
            }
            let path = Paths.textual(file)
            let base = (path as NSString).deletingLastPathComponent
            let text = M3U.render(name: playlist.name, entries: entries, relativeTo: absolute ? nil : base)
            let output = try OutputFile(path)
            try output.write(text)
            try output.commit()
            Out.line("Wrote \(entries.count) entr\(entries.count == 1 ? "y" : "ies") to \(path).")
        }
    }

    struct ImportM3U: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Make a playlist from an M3U, M3U8, PLS or XSPF file.",
            discussion: """
                The format is the extension's, else told from the text. Paths (relative to the \
                file's folder, absolute, or file:// URLs) are matched to songs in the library; \
                paths not in the library are reported and skipped. The name is --name, else the \
                file's own (#PLAYLIST, an XSPF <title>), else its file name.
                """)
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Option(help: "The playlist's name.") var name: String?
        @Flag(help: "Replace the entries of an existing playlist of that name.") var replace = false
        @Argument(help: "The playlist file.") var file: String

        func run() throws {
            let path = Paths.textual(file)
            guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
            guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                throw CLIError("\(path) is not a text file")
            }
            let format = PlaylistFileFormat(path: path) ?? PlaylistFileFormat.sniffed(text)
            guard let parsed = format.parse(text, base: (path as NSString).deletingLastPathComponent) else {
                throw CLIError("\(path) holds no \(format.rawValue.uppercased()) playlist")
            }
            let listName = name ?? parsed.name.flatMap { $0.isEmpty ? nil : $0 }
                ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let lib = try Library.open(at: options.location, create: false)
            var unknown = 0
            var ids: [SongID] = []
            for p in parsed.paths {
                if case let found = lib.basis.songs(atURIPath: p), !found.isEmpty { ids += found.map(\.id) } else {
                    unknown += 1
                    if unknown <= 20 { Terminal.warn("skipped \(p): not in the library") }
                }
            }
            if unknown > 20 { Terminal.warn("skipped \(unknown - 20) more paths not in the library") }
            guard !ids.isEmpty else {
                throw CLIError("none of the \(parsed.paths.count) paths in \(path) is a song in the library; import the music first")
            }
            let seq = try PlaylistCommand.commit(lib, message: change.message, label: "playlist import \(listName)") { basis in
                if replace, basis.playlist(named: listName) != nil {
                    return try PlaylistGeneration.replace(listName, songs: ids, on: basis)
                }
                if !replace, let (_, existing) = basis.playlist(named: listName) {
                    throw CLIError("a playlist named '\(existing.name)' already exists: add --replace to replace its entries, or --name NEW")
                }
                return try PlaylistGeneration.create(listName, songs: ids, id: ListID(UUID()), on: basis)
            }
            Out.line("Imported \(ids.count) of \(parsed.paths.count) entries into '\(listName)'" + (seq.map { " (transaction \($0))." } ?? ": already so."))
        }
    }
}
