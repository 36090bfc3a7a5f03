import ArgumentParser
import BoomicCore
import BoomicLibrary

struct Info: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Show every field of the matching songs.")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var read: ReadOptions
    @Argument(help: "The query.")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        // A view is read through, as `ls` reads it: the query's songs that the taglist holds.
        let basis = try lib.basis(asOf: read.asOf)
        let taglist = try read.view.map { try lib.taglist(view: $0, in: basis) }
        let songs = try basis.songs(matching: QueryReading.parse(query, in: basis, now: read.asOf == nil ? nil : lib.basis),
                                    through: taglist, timeZone: .current)
        if output.json { try JSONOut.printArray(songs.map { SongJSON($0) }); return }
        if songs.isEmpty { throw CLIError("no songs match '\(query.joined(separator: " "))'", exitCode: 1) }
        var out = Out.Batch()
        for (i, s) in songs.enumerated() {
            if i > 0 { out.line("") }
            out.line(Terminal.bold(Terminal.printable(s.path)))
            out.line("  \("id".padding(toLength: 22, withPad: " ", startingAt: 0)) \(s.id)")
            // A guessed value says so after it; the marks are shown there, not as a field.
            for f in SongField.allCases where f != .path && f != .userFields && f != .guessed {
                let v = f.value(in: s)
                if v.isNull || v == .strings([]) { continue }
                let shown: String
                switch f {
                case .tags: shown = Terminal.printable(s.tags.map { "#" + $0 }.joined(separator: " "))
                case .added: shown = Formatting.localTime(s.added)
                case .lastplayed: shown = Formatting.localTime(s.lastplayed ?? 0)
                case .bookmark: shown = Formatting.duration(s.bookmark) + " (\(v))"
                case .duration: shown = Formatting.duration(s.duration) + " (\(v))"
                case .bitrate: shown = "\(v) kbit/s"
                default: shown = Terminal.printable(v.description)
                }
                let mark = s.guessed.contains(f.rawValue) ? " " + Terminal.dim("(guessed)") : ""
                out.line("  \(f.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(shown)\(mark)")
            }
            // The user's own fields, after the known ones, by name.
            for (name, value) in s.userFieldMap.sorted(by: { $0.key < $1.key }) {
                out.line("  \(name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(value)")
            }
        }
    }
}
