import Foundation
import Testing

/// `boomic search`, end to end on the samples.
@Suite struct SearchCommandTests {
    struct Hit: Decodable, Equatable { var kind: String; var name: String; var tier: String; var songs: Int? }

    static func hits(_ box: Sandbox, _ args: String...) throws -> [Hit] {
        try decodeJSON([Hit].self, try box.succeed(["search", "--json"] + args).stdout)
    }

    @Test func ranksEveryKindTogetherFoldingAccents() throws {
        let box = try Sandbox()
        try box.importSamples()
        // `sigrun` finds Sigrún: the artist first (her name starts with it), then her album, then songs.
        let sigrun = try Self.hits(box, "sigrun")
        #expect(sigrun.first == Hit(kind: "artist", name: "Sigrún Jónsdóttir", tier: "namePrefix", songs: 3), "\(sigrun)")
        #expect(sigrun.map(\.kind) == ["artist", "album", "song", "song", "song"], "\(sigrun)")
        // An album by a word of its title, accents folded.
        #expect(try Self.hits(box, "spatz").first.map { ($0.kind, $0.name) } ?? ("", "") == ("album", "Ace of Spätz"))
        // Taglists and playlists are found by name, with the library.
        try box.succeed("tag", "album:Blue Sketches", "+#jazz", "-y")
        try box.succeed("taglist", "add", "Blue Mood", "+#jazz")
        try box.succeed("playlist", "new", "Blues for Sunday", "album:Blue Sketches")
        let blue = try Self.hits(box, "blue")
        // Name prefixes, shorter names first: Blue Mood, Blue in Grey, Blue Sketches, Blues for Sunday.
        #expect(blue.prefix(4).map(\.kind) == ["taglist", "song", "album", "playlist"], "\(blue)")
        #expect(blue.first { $0.kind == "taglist" }?.songs == 3)
        #expect(try Self.hits(box, "blue", "--limit", "2").count == 2)
        // Text output: one hit per line, the kind first.
        let text = try box.succeed("search", "sigrun")
        #expect(text.lines.first?.hasPrefix("artist   Sigrún Jónsdóttir") == true, "\(text)")
    }

    @Test func viewsAndTimeTravelNarrowTheSearch() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("tag", "album:Double Live", "+#live", "-y")
        try box.succeed("taglist", "add", "live", "+#live")
        #expect(try Self.hits(box, "road", "--view", "live").map(\.kind).contains("song"))
        // Finding nothing is an answer, as for ls: exit 0 in both modes.
        let none = try box.succeed("search", "sigrun", "--view", "live")
        #expect(none.lines == ["Nothing matches 'sigrun'."], "\(none)")
        #expect(try Self.hits(box, "sigrun", "--view", "live").isEmpty)
        try box.succeed("modify", "album:Double Live", "album=Doppel Live", "-y")
        #expect(try Self.hits(box, "doppel").contains { $0.kind == "album" })
        #expect(try Self.hits(box, "double", "--as-of", "HEAD~1").contains { $0.kind == "album" && $0.name == "Double Live" })
    }

    @Test func badTextIsAOneLineError() throws {
        let box = try Sandbox()
        try box.importSamples()
        for args in [["search"], ["search", "   "], ["search", "!!!"], ["search", "x", "--view", "nope"]] {
            let run = try box.boomic(args)
            #expect(!run.succeeded && run.errorLines.count == 1 && run.stdout.isEmpty, "\(args): \(run)")
        }
        // A usage error: exit 64, the reason first, then the usage (as for every option).
        let limit = try box.boomic("search", "x", "--limit=-1")
        #expect(limit.status == 64 && limit.errorLines.first == "Error: --limit takes a number of results, 0 for all", "\(limit)")
    }
}
