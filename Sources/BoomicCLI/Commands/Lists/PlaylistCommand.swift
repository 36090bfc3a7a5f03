import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

/// `boomic playlist …`: hand-ordered lists of songs. Entries follow songs by id, so a moved file
/// stays in its playlists; every change is a transaction (history, undo, rollback).
struct PlaylistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Make and change playlists: ordered songs, duplicates allowed, M3U8 import and export.",
        discussion: "Positions count from 1, as 'boomic playlist show' numbers them.",
        subcommands: [New.self, List.self, Show.self, Add.self, RemoveEntries.self, Move.self,
                      Rename.self, Delete.self, ExportM3U.self, ImportM3U.self]
    )

    /// Commits one playlist change and says what happened.
    static func commit(_ lib: LibrarySession, message: String?, label: String,
                       _ generate: (DataBasis) throws -> [Assertion]) throws -> Int? {
        let c = try lib.commit(kind: .playlist, message: message) { basis in
            let a = try generate(basis)
            return a.isEmpty ? nil : (a, label)
        }
        return c?.seq
    }

    static func songs(matching query: [String], in basis: DataBasis) throws -> [SongID] {
        try basis.songs(matching: ChangeQuery.parse(query, in: basis)).map(\.id)
    }

    struct New: ParsableCommand, TakesTerms {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a playlist, empty or with the songs matching a query.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The playlist's name.") var name: String
        @Argument(help: "A query whose songs fill it, in browsing order (or the query's sort).") var query: [String] = []
        var terms: [String] { get { query } set { query = newValue } }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            var count = 0
            let seq = try PlaylistCommand.commit(lib, message: change.message, label: "playlist new \(name)") { basis in
                let ids = query.isEmpty ? [] : try PlaylistCommand.songs(matching: query, in: basis)
                count = ids.count
                return try PlaylistGeneration.create(name, songs: ids, id: ListID(UUID()), on: basis)
            }
            if let seq { Out.line("Created playlist '\(name)' with \(Formatting.count(count, "song")) (transaction \(seq)).") }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the playlists.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Option(name: .customLong("as-of"), help: ArgumentHelp("List the playlists as they were at REF.", valueName: "REF"))
        var asOf: String?

        struct Row: Encodable { var id: String; var name: String; var songs: Int; var duration: Double }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let basis = try lib.basis(asOf: asOf)
            let rows = basis.playlistsByName.map { id, p in
                Row(id: id.description, name: p.name, songs: p.songs.count,
                    duration: (p.songs.compactMap { basis[$0]?.duration }.reduce(0, +) * 1000).rounded() / 1000)
            }
            if output.json { try JSONOut.printArray(rows); return }
            if rows.isEmpty { Out.line("No playlists yet; 'boomic playlist new NAME [QUERY]' makes one."); return }
            for r in rows {
                Out.line("\(Terminal.bold(Terminal.printable(r.name)))  " + Terminal.dim("\(Formatting.count(r.songs, "song")), \(Formatting.duration(r.duration))"))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "List a playlist's songs with their positions.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Option(name: [.short, .customLong("format")], help: "Template such as '$artist - $title'.") var format: String?
        @Option(name: .customLong("as-of"), help: ArgumentHelp("The playlist as it was at REF.", valueName: "REF"))
        var asOf: String?
        @Argument(help: "The playlist's name.") var name: String

        /// A song with its position; an entry whose song was removed from the library has only
        /// its id (undoing the removal brings it back).
        struct Row: Encodable {
            var position: Int
            var song: Song?
            var id: SongID

            func encode(to encoder: any Encoder) throws {
                if let song { try SongJSON(song).encode(to: encoder) }
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(position, forKey: .position)
                if song == nil { try c.encode(id, forKey: .id); try c.encode(true, forKey: .removed) }
            }
            enum Key: String, CodingKey { case position, id, removed }
        }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let basis = try lib.basis(asOf: asOf)
            let template = try format.map { try SongFormat($0, userFields: basis.userFieldNames) }
            let (_, playlist) = try PlaylistGeneration.find(name, in: basis)
            let rows = playlist.songs.enumerated().map { Row(position: $0.offset + 1, song: basis[$0.element], id: $0.element) }
            if output.json { try JSONOut.printArray(rows); return }
            let width = String(rows.count).count
            for r in rows {
                let n = String(r.position).leftPadded(to: width)
                guard let s = r.song else { Out.line("\(n)  " + Terminal.dim("(removed from the library: \(r.id))")); continue }
                Out.line("\(n)  " + (template?.render(s) ?? SongFormat.line(s)) + (s.missing ? Terminal.dim(" (missing)") : ""))
            }
        }
    }

    struct Add: ParsableCommand, TakesTerms {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add the songs matching a query to a playlist (at the end, or at --at).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Option(help: ArgumentHelp("Insert before this position instead of appending.", valueName: "POS")) var at: Int?
        @Argument(help: "The playlist's name.") var name: String
        @Argument(help: "The query.") var query: [String] = []
        var terms: [String] { get { query } set { query = newValue } }

        func validateTerms() throws {
            if query.isEmpty { throw ValidationError("give a query for the songs to add (a bare word, field:value, #tag, …)") }
        }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            var count = 0
            let seq = try PlaylistCommand.commit(lib, message: change.message, label: "playlist add \(name) \(query.joined(separator: " "))") { basis in
                let ids = try PlaylistCommand.songs(matching: query, in: basis)
                count = ids.count
                return try PlaylistGeneration.add(name, songs: ids, at: at, on: basis)
            }
            guard let seq else {
                _ = try PlaylistGeneration.find(name, in: lib.basis)
                throw CLIError("no songs match '\(query.joined(separator: " "))': nothing added")
            }
            Out.line("Added \(Formatting.count(count, "song")) to '\(name)' (transaction \(seq)).")
        }
    }

    struct RemoveEntries: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove entries by position (e.g. 3 5 7..9); the songs stay in the library.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The playlist's name.") var name: String
        @Argument(help: "Positions, or ranges FROM..TO.") var positions: [String] = []

        func run() throws {
            let list = try Self.positions(positions)
            let lib = try Library.open(at: options.location, create: false)
            let seq = try PlaylistCommand.commit(lib, message: change.message, label: "playlist remove \(name) \(positions.joined(separator: " "))") { basis in
                try PlaylistGeneration.remove(name, positions: list, on: basis)
            }
            if let seq { Out.line("Removed \(Set(list).count) entr\(Set(list).count == 1 ? "y" : "ies") from '\(name)' (transaction \(seq)).") }
        }

        static func positions(_ args: [String]) throws -> [Int] {
            guard !args.isEmpty else { throw ValidationError("give the positions to remove, as 'boomic playlist show' numbers them") }
            var out: [Int] = []
            for a in args {
                let parts = a.components(separatedBy: "..")
                if parts.count == 2, let lo = Int(parts[0]), let hi = Int(parts[1]), lo >= 1, lo <= hi, hi - lo < 1_000_000 {
                    out += Array(lo...hi)
                } else if let n = Int(a) {
                    out.append(n)
                } else {
                    throw CLIError("'\(a)' is not a position: give numbers such as 3 or ranges such as 7..9", exitCode: 64)
                }
            }
            return out
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move the entry at FROM to position TO.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The playlist's name.") var name: String
        @Argument var from: Int
        @Argument var to: Int

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let seq = try PlaylistCommand.commit(lib, message: change.message, label: "playlist move \(name) \(from) \(to)") { basis in
                try PlaylistGeneration.move(name, from: from, to: to, on: basis)
            }
            Out.line(seq.map { "Moved entry \(from) to \(to) (transaction \($0))." } ?? "Nothing to move.")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a playlist.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The playlist's name.") var name: String
        @Argument(help: "The new name.") var newName: String

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let seq = try PlaylistCommand.commit(lib, message: change.message, label: "playlist rename \(name) → \(newName)") { basis in
                try PlaylistGeneration.rename(name, to: newName, on: basis)
            }
            Out.line(seq.map { "Renamed '\(name)' to '\(newName)' (transaction \($0))." } ?? "The playlist is already called so.")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a playlist (its songs stay; 'boomic undo' brings it back).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The playlist's name.") var name: String

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let seq = try PlaylistCommand.commit(lib, message: change.message, label: "playlist rm \(name)") { basis in
                try PlaylistGeneration.delete(name, on: basis)
            }
            if let seq { Out.line("Deleted playlist '\(name)' (transaction \(seq)); 'boomic undo' brings it back.") }
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
