import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

/// `boomic search TEXT`: one ranked list of songs, albums, artists, taglists and playlists, the
/// way a player's search box works (`Documentation/search.md`).
struct Search: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find songs, albums, artists, taglists and playlists by name, best matches first.",
        discussion: """
            Every word must match: whole names first, then names starting with the text, then \
            words starting with each word, then words inside names. Case, accents and punctuation \
            are ignored: 'bjork' finds Björk, 'acdc' finds AC/DC. For exact field matches use 'boomic ls'.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var read: ReadOptions
    @Option(help: "Show at most N results (0 for all).") var limit = 25
    @Argument(help: "What to look for.") var text: [String] = []
    var terms: [String] { get { text } set { text = newValue } }

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit takes a number of results, 0 for all") }
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let whole = try lib.basis(asOf: read.asOf)
        let basis = try lib.basis(asOf: read.asOf, view: read.view)
        let items = whole.taglistsByName.map { SearchItem(kind: .taglist, id: $0.id.description, name: $0.taglist.name) }
            + whole.playlistsByName.map { SearchItem(kind: .playlist, id: $0.id.description, name: $0.playlist.name) }
        let hits = try basis.search(text.joined(separator: " "), items: items, limit: limit == 0 ? nil : limit)
        let rows = hits.map { Row($0, basis: basis, whole: whole) }
        if output.json { try JSONOut.printArray(rows); return }
        // Like `ls`, finding nothing is an answer, not an error: exit 0 in both modes.
        if rows.isEmpty { Out.line("Nothing matches '\(OneLine.excerpt(text.joined(separator: " "), around: 0))'."); return }
        var out = Out.Batch()
        for r in rows {
            out.line(Terminal.dim(r.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) + r.line)
        }
    }

    /// One result, for people (`line`) and scripts (the JSON fields).
    struct Row: Encodable {
        var kind: SearchKind
        var name: String
        var tier: String
        var matched: [String]
        var id: String?
        var artist: String?
        var album: String?
        var albumartist: String?
        var path: String?
        var albums: Int?
        var songs: Int?
        var line: String

        enum CodingKeys: String, CodingKey { case kind, name, tier, matched, id, artist, album, albumartist, path, albums, songs }

        init(_ hit: SearchHit, basis: DataBasis, whole: DataBasis) {
            kind = hit.kind
            name = hit.name
            tier = "\(hit.tier)"
            matched = hit.matches.map(\.field.rawValue)
            switch hit.subject {
            case .song(let songID):
                let s = basis[songID]
                id = songID.description
                artist = s.map { $0.artist ?? "" }
                album = s?.album
                path = s?.path
                line = s.map(SongFormat.line) ?? hit.name
            case .album(_, let title, let albumArtist, let n):
                album = title
                albumartist = albumArtist
                songs = n
                line = Terminal.printable("\(albumArtist) - \(title)") + "  " + Terminal.dim(Formatting.count(n, "song"))
            case .artist(_, let display, let albumCount, let n):
                albums = albumCount
                songs = n
                line = Terminal.printable(display) + "  " + Terminal.dim(Formatting.count(albumCount, "album") + ", " + Formatting.count(n, "song"))
            case .taglist(let listID, let listName):
                id = listID
                let n = ListID(uuidString: listID).flatMap { whole.taglists[$0] }.map { basis.songCount(in: $0, timeZone: .current) } ?? 0
                songs = n
                line = Terminal.printable(listName) + "  " + Terminal.dim(Formatting.count(n, "song"))
            case .playlist(let listID, let listName):
                id = listID
                let n = ListID(uuidString: listID).flatMap { whole.playlists[$0] }?.songs.count ?? 0
                songs = n
                line = Terminal.printable(listName) + "  " + Terminal.dim(Formatting.count(n, "song"))
            }
        }
    }
}
