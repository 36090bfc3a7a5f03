import Foundation
import Testing

/// `boomic playlist`, end to end on the samples: order, duplicates, positions, ids that follow
/// moved files, M3U8 both ways, and every change a transaction.
@Suite struct PlaylistCommandTests {
    struct Entry: Decodable, Equatable { var position: Int; var id: String; var title: String?; var path: String?; var removed: Bool? }

    static func entries(_ box: Sandbox, _ name: String) throws -> [Entry] {
        try decodeJSON([Entry].self, try box.succeed("playlist", "show", name, "--json").stdout)
    }

    static func titles(_ box: Sandbox, _ name: String) throws -> [String] {
        try entries(box, name).map { $0.title ?? "?" }
    }

    @Test func entriesKeepOrderAndDuplicatesAndPositionsCountFromOne() throws {
        let box = try Sandbox()
        try box.importSamples()
        let new = try box.succeed("playlist", "new", "Road Trip", "album:Blue Sketches")
        #expect(new.lines == ["Created playlist 'Road Trip' with 3 songs (transaction 2)."])
        try box.succeed("playlist", "add", "road trip", "title:Opening", "--at", "2")
        try box.succeed("playlist", "add", "road trip", "title:So Modal")
        #expect(try Self.titles(box, "road trip") == ["So Modal", "Opening", "Blue in Grey", "Flamenco Dusk", "So Modal"])
        #expect(try Self.entries(box, "road trip").map(\.position) == [1, 2, 3, 4, 5])
        try box.succeed("playlist", "move", "road trip", "1", "4")
        #expect(try Self.titles(box, "road trip") == ["Opening", "Blue in Grey", "Flamenco Dusk", "So Modal", "So Modal"])
        try box.succeed("playlist", "remove", "road trip", "2..3", "5")
        #expect(try Self.titles(box, "road trip") == ["Opening", "So Modal"])
        try box.succeed("playlist", "rename", "road trip", "Trip")
        #expect(try box.succeed("playlist", "ls").lines.first?.hasPrefix("Trip") == true)
        let kinds = try box.history().prefix(6).map(\.kind)
        #expect(kinds == Array(repeating: "playlist", count: 6))
        // Every step undoes.
        try box.succeed("undo", "3", "-y")
        #expect(try Self.titles(box, "road trip") == ["So Modal", "Opening", "Blue in Grey", "Flamenco Dusk", "So Modal"])
        try box.succeed("playlist", "rm", "road trip")
        #expect(try box.boomic("playlist", "show", "road trip").status == 1)
        try box.succeed("undo", "-y")
        #expect(try Self.titles(box, "Road Trip").count == 5)
        #expect(try box.succeed("verify").succeeded)
    }

    @Test func aMovedFileStaysInItsPlaylistsAndARemovedSongComesBackOnUndo() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("playlist", "new", "p", "album:Blue Sketches")
        let ids = try Self.entries(box, "p").map(\.id)
        try FileManager.default.moveItem(atPath: box.file("Miles Quartet/Blue Sketches/02 Blue in Grey.flac"),
                                         toPath: box.file("Miles Quartet/Blue in Grey (moved).flac"))
        try box.succeed("import")
        let after = try Self.entries(box, "p")
        #expect(after.map(\.id) == ids)
        #expect(after[1].path == box.file("Miles Quartet/Blue in Grey (moved).flac"))
        try box.succeed("remove", "title:So Modal", "-y")
        let shown = try box.succeed("playlist", "show", "p")
        #expect(shown.lines.first?.contains("removed from the library") == true, "\(shown)")
        #expect(try Self.entries(box, "p").first?.removed == true)
        try box.succeed("undo", "-y")
        #expect(try Self.titles(box, "p") == ["So Modal", "Blue in Grey", "Flamenco Dusk"])
    }

    @Test func m3u8ExportAndImportRoundTrip() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("playlist", "new", "Mix", "album:Night Drive")
        try box.succeed("playlist", "add", "mix", "album:Night Drive")   // duplicates kept
        let file = box.root + "/lists/mix.m3u8"
        try FileManager.default.createDirectory(atPath: box.root + "/lists", withIntermediateDirectories: true)
        try box.succeed("playlist", "export", "mix", file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["#EXTM3U", "#PLAYLIST:Mix"])
        #expect(lines.filter { !$0.hasPrefix("#") }.allSatisfy { $0.hasPrefix("../music/Various Artists/Night Drive/") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("#EXTINF:") && $0.contains("Midnight Run") })
        let absolute = try box.succeed("playlist", "export", "mix").stdout
        #expect(absolute.contains("\n" + box.file("Various Artists/Night Drive/01 Midnight Run.flac") + "\n"))

        let imported = try box.succeed("playlist", "import", file, "--name", "Copy")
        #expect(imported.lines == ["Imported 8 of 8 entries into 'Copy' (transaction 4)."], "\(imported)")
        #expect(try Self.entries(box, "copy").map(\.id) == (try Self.entries(box, "mix").map(\.id)))
        // The file's #PLAYLIST name is taken, so a second import without --name is refused.
        #expect(try box.boomic("playlist", "import", file).errorLines.count == 1)

        // Unknown paths are reported and skipped; none known is an error.
        let other = box.root + "/lists/other.m3u"
        try "# a comment\nfile://\(box.file("Old Timer/Retro Hits/01 Eight Bit Song.mp3").addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!)\n/nowhere/x.flac\nhttp://radio.example/stream\n"
            .write(toFile: other, atomically: true, encoding: .utf8)
        let partial = try box.boomic("playlist", "import", other)
        #expect(partial.succeeded && partial.errorLines.count == 2, "\(partial)")
        #expect(try Self.titles(box, "other") == ["Eight Bit Song"])
        try "/nowhere/x.flac\n".write(toFile: other, atomically: true, encoding: .utf8)
        let none = try box.boomic("playlist", "import", other, "--name", "none")
        #expect(none.status == 1 && none.errorLines.last?.contains("none of the 1 paths") == true, "\(none)")
    }

    /// A PLS from a radio site or Winamp and an XSPF from VLC: told by extension or by text,
    /// named by the XSPF's title, and a file of neither kind refused in one line.
    @Test func plsAndXSPFImport() throws {
        let box = try Sandbox()
        try box.importSamples()
        let lists = box.root + "/lists"
        try FileManager.default.createDirectory(atPath: lists, withIntermediateDirectories: true)
        let one = box.file("Old Timer/Retro Hits/01 Eight Bit Song.mp3")
        try "[playlist]\r\nNumberOfEntries=2\r\nFile2=\(one)\r\nFile1=../music/Miles Quartet/Blue Sketches/01 So Modal.flac\r\n"
            .write(toFile: lists + "/radio.pls", atomically: true, encoding: .utf8)
        #expect(try box.succeed("playlist", "import", lists + "/radio.pls").lines == ["Imported 2 of 2 entries into 'radio' (transaction 2)."])
        #expect(try Self.titles(box, "radio") == ["So Modal", "Eight Bit Song"])
        let escaped = one.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/"><title>From VLC</title><trackList>
            <track><location>file://\(escaped)</location></track>
            <track><location>../music/Miles%20Quartet/Blue%20Sketches/02%20Blue%20in%20Grey.flac</location></track>
            </trackList></playlist>
            """.write(toFile: lists + "/vlc", atomically: true, encoding: .utf8)
        #expect(try box.succeed("playlist", "import", lists + "/vlc").lines == ["Imported 2 of 2 entries into 'From VLC' (transaction 3)."])
        #expect(try Self.titles(box, "From VLC") == ["Eight Bit Song", "Blue in Grey"])
        try "<html>no list</html>".write(toFile: lists + "/page.xspf", atomically: true, encoding: .utf8)
        let refused = try box.boomic("playlist", "import", lists + "/page.xspf")
        #expect(refused.status == 1 && refused.errorLines == ["Error: \(lists)/page.xspf holds no XSPF playlist"], "\(refused)")
    }

    @Test func mistakesAreOneLineErrorsAndChangeNothing() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("playlist", "new", "p", "album:Blue Sketches")
        for args in [["playlist", "new", "P"], ["playlist", "remove", "p", "4"], ["playlist", "remove", "p", "x"],
                     ["playlist", "move", "p", "0", "1"], ["playlist", "show", "q"], ["playlist", "add", "p", "album:nothing-like-this"],
                     ["playlist", "rename", "p", ""], ["playlist", "add", "p", "year:abc"], ["playlist", "import", "/nonexistent.m3u8"],
                     ["playlist", "remove", "p", "--", "-1..9223372036854775807"], ["playlist", "remove", "p", "0..9223372036854775807"],
                     ["playlist", "show", "x\ny"]] {
            let run = try box.boomic(args)
            #expect(!run.succeeded && run.errorLines.count == 1 && run.stdout.isEmpty, "\(args): \(run)")
        }
        #expect(try box.historyCount() == 2)
        // A name that looks like a negated query term (`-x:y`) is given after `--`, as for queries.
        try box.succeed("playlist", "rename", "p", "--", "-best: of")
        #expect(try box.succeed("playlist", "ls").lines.first?.hasPrefix("-best: of") == true)
        try box.succeed("playlist", "rename", "--", "-best: of", "p")
        #expect(try box.succeed("playlist", "ls").lines.first?.hasPrefix("p ") == true)
    }
}
