import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

struct Ls: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List songs, albums or artists matching a query.",
        discussion: """
            QUERY follows beets: bare words match title/artist/album/…; field:value (substring), \
            field:=value (exact), field::regex, ranges year:1990..1999, negation ^term or -term, \
            ',' for OR, sort with field+ / field-, #tag. Example: boomic ls artist:miles year:1955..1965 year+
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Flag(name: [.short, .customLong("albums")], help: "List albums instead of songs.")
    var albums = false
    @Flag(help: "List artists instead of songs.")
    var artists = false
    @Option(name: [.short, .customLong("format")], help: "Template such as '$artist - $title' (songs) or '$albumartist - $album'.")
    var format: String?
    @OptionGroup var read: ReadOptions
    @Argument(help: "The query.")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    func validate() throws {
        if albums && artists { throw ValidationError("choose one of --albums and --artists") }
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        // A view is read through, not built: the query picks its songs in the whole library and
        // the taglist keeps those it holds, which is what the view's songs would match.
        let basis = try lib.basis(asOf: read.asOf)
        let taglist = try read.view.map { try lib.taglist(view: $0, in: basis) }
        let template = try format.map { try SongFormat($0, userFields: basis.userFieldNames) }
        let parsed = try QueryReading.parse(query, in: basis, now: read.asOf == nil ? nil : lib.basis)
        // Each song is made of the fields what is printed reads (and, for songs, those the order
        // reads): albums and artists from a few fields, each in its own order; a line or a
        // template from its own; JSON from every field.
        let reading: [SongField]? = albums ? Browse.albumFields + (template?.fieldsRead ?? [])
            : artists ? Browse.artistFields
            : output.json ? nil : (template?.fieldsRead ?? SongFormat.lineFields) + [.missing]
        let songs = try basis.songs(matching: parsed, through: taglist, timeZone: .current, sorted: !albums && !artists,
                                    reading: reading)
        if albums {
            // In a view, each album says how many of its songs the view holds (taglists.md).
            try printAlbums(Browse.albums(of: songs, in: basis), template: template, whole: taglist == nil ? nil : basis)
        } else if artists {
            try printArtists(Browse.artists(of: songs, in: basis))
        } else if output.json {
            try JSONOut.printArray(songs.lazy.map { SongJSON($0) })
        } else {
            var out = Out.Batch()
            for s in songs {
                out.line((template?.render(s) ?? SongFormat.line(s)) + (s.missing ? Terminal.dim(" (missing)") : ""))
            }
        }
    }

    private func printAlbums(_ list: [Browse.AlbumRow], template: SongFormat?, whole: DataBasis?) throws {
        if output.json { try JSONOut.printArray(list); return }
        let totals = whole?.songCounts(ofAlbums: Set(list.compactMap { $0.firstSong.flatMap(AlbumKey.init) })) ?? [:]
        var out = Out.Batch()
        for a in list {
            if let t = template, let first = a.firstSong { out.line(t.render(first)); continue }
            let year = a.year.map { " (\($0))" } ?? ""
            var counts = ""
            if let key = a.firstSong.flatMap(AlbumKey.init), let total = totals[key] {
                counts = "  " + Terminal.dim("\(a.songs) of \(Formatting.count(total, "song"))")
            }
            out.line(Terminal.printable("\(a.albumartist) - \(a.album)") + year + counts)
        }
    }

    private func printArtists(_ list: [Browse.ArtistRow]) throws {
        if output.json { try JSONOut.printArray(list); return }
        var out = Out.Batch()
        for a in list {
            out.line("\(Terminal.printable(a.name))  \(Terminal.dim("\(Formatting.count(a.albums, "album")), \(Formatting.count(a.songs, "song"))"))")
        }
    }
}
