import Foundation
import Testing

/// `boomic taglist`, `--view` (TagViews) and what-if previews, end to end on the samples.
@Suite struct TaglistCommandTests {
    struct TaglistRow: Decodable, Equatable { var name: String; var clauses: [String]; var songs: Int }

    /// The samples tagged for DESIGN §5's worked example: English 1977, French 2001 and 1980,
    /// Japanese 2011; and the taglist `mix` over them. Each test gets its own copy of the
    /// library, built once per test process (the tests change only the library, never the music).
    static func worked(_ label: String = #function) throws -> Sandbox {
        try Sandbox(copying: template.get(), label)
    }

    static let template = Result { () throws -> Sandbox in
        let box = try Sandbox.forProcess("worked")
        try box.importSamples()
        try box.succeed("tag", "album:Double Live", "+#english", "-y")      // 1977, 4 songs
        try box.succeed("tag", "album:Night Drive", "+#french", "-y")       // 2001, 4 songs
        try box.succeed("tag", "album:Ace of Spätz", "+#french", "-y")      // 1980, 3 songs
        try box.succeed("tag", "album:Hljóð", "+#japanese", "-y")           // 2011, 3 songs
        let add = try box.succeed("taglist", "add", "mix", "+#english,#french", "-#french", "-@year(<2000)", "-m", "the example")
        #expect(add.lines.last == "Added taglist mix: 8 songs (transaction 6).", "\(add)")
        return box
    }

    static func albums(_ box: Sandbox, _ extra: String...) throws -> [String] {
        try box.succeed(["ls", "-a", "-f", "$album"] + extra).lines
    }

    @Test func theWorkedExampleHoldsAndTheViewShowsOnlyItsAlbumsAndArtists() throws {
        let box = try Self.worked()
        #expect(try Self.albums(box, "--view", "mix") == ["Double Live", "Night Drive"])
        #expect(try box.succeed("taglist", "show", "MIX", "-a", "-f", "$album").lines == ["Double Live", "Night Drive"])
        let songs = try decodeJSON([SongRecord].self, try box.succeed("ls", "--json", "--view", "mix").stdout)
        #expect(Set(songs.compactMap(\.album)) == ["Double Live", "Night Drive"] && songs.count == 8)
        // A query narrows the view further; info sees the view too.
        #expect(try box.succeed("ls", "--view", "mix", "year:..1990", "-f", "$title").lines.count == 4)
        let shown = try decodeJSON([SongRecord].self, try box.succeed("info", "--json", "--view", "mix", "year:..1990").stdout)
        #expect(shown.count == 4 && Set(shown.compactMap(\.album)).isSubset(of: ["Double Live", "Night Drive"]), "\(shown)")
        let info = try box.boomic("info", "--view", "mix", "album:Hljóð")
        #expect(!info.succeeded && info.errorLines.count == 1, "\(info)")
        // Artists: only those with a song in the view, with the view's counts.
        struct Artist: Decodable { var name: String; var albums: Int; var songs: Int }
        let artists = try decodeJSON([Artist].self, try box.succeed("ls", "--artists", "--json", "--view", "mix").stdout)
        #expect(artists.first { $0.name == "The Long Road Band" }.map { ($0.albums, $0.songs) } ?? (0, 0) == (1, 4))
        #expect(!artists.contains { $0.name == "Motörhead-ish" || $0.name == "Sigrún Jónsdóttir" })
        let rows = try decodeJSON([TaglistRow].self, try box.succeed("taglist", "ls", "--json").stdout)
        #expect(rows == [TaglistRow(name: "mix", clauses: ["+#english,#french", "-#french", "-@year:<2000"], songs: 8)])
    }

    @Test func aViewFollowsEditsAndCombinesWithAsOf() throws {
        let box = try Self.worked()
        // Albums list by album artist: Old Timer, The Long Road Band, Various Artists.
        try box.succeed("tag", "album:Retro Hits", "+#english", "-y")       // 1985: in
        #expect(try Self.albums(box, "--view", "mix") == ["Retro Hits", "Double Live", "Night Drive"])
        try box.succeed("modify", "album:Night Drive", "year=1999", "-y")    // French before 2000: out
        #expect(try Self.albums(box, "--view", "mix") == ["Retro Hits", "Double Live"])
        #expect(try Self.albums(box, "--view", "mix", "--as-of", "6") == ["Double Live", "Night Drive"])
        #expect(try Self.albums(box, "--view", "mix", "--as-of", "HEAD~1") == ["Retro Hits", "Double Live", "Night Drive"])
        // Before the taglist existed, its current rules are applied to the songs of then.
        #expect(try Self.albums(box, "--view", "mix", "--as-of", "5") == ["Double Live", "Night Drive"])
    }

    /// `taglist show NAME --as-of REF` lists what the taglist held then, by its definition then
    /// (taglists.md): before it existed it held nothing, which is one line saying so, not today's
    /// rules in disguise (issue 9, item 2.16). `ls --view` keeps applying today's rules.
    @Test func showAsOfBeforeTheTaglistExistedSaysSo() throws {
        let box = try Self.worked()
        let run = try box.boomic("taglist", "show", "mix", "--as-of", "5")
        #expect(run.status == 1 && run.stdout.isEmpty && run.errorLines.count == 1, "\(run)")
        #expect(run.stderr.contains("did not exist") && run.stderr.contains("--view"), "\(run)")
        #expect(try Self.albums(box, "--view", "mix", "--as-of", "5") == ["Double Live", "Night Drive"])
    }

    /// `+@added:YEAR` and the query `added:YEAR` agree (issue 9, item 2.9: the taglist compared
    /// seconds since 1970 with the year and held nothing).
    @Test func addedReadsTheSameInATaglistAndAQuery() throws {
        let box = try Sandbox()
        try box.importSamples()
        let year = String(Calendar.current.component(.year, from: Date()))
        let all = try box.songs().count
        #expect(try box.songs("added:" + year).count == all)
        let add = try box.succeed("taglist", "add", "new", "+@added:" + year)
        #expect(add.lines.last?.hasPrefix("Added taglist new: \(all) songs") == true, "\(add)")
        #expect(try box.songs("--view", "new").count == all)
        #expect(try box.boomic("taglist", "add", "hex", "+@year:0x7B9").status == 1)
    }

    /// The documented `ls -a --view mix`: albums "with their counts in the view".
    @Test func albumsInAViewShowTheirCountsInTheView() throws {
        let box = try Self.worked()
        try box.succeed("modify", "title:Midnight Run", "year=1999", "-y")  // French before 2000: out of the view
        let lines = try box.succeed("ls", "-a", "--view", "mix").lines
        #expect(lines == ["The Long Road Band - Double Live (1977)  4 of 4 songs", "Various Artists - Night Drive (2001)  3 of 4 songs"], "\(lines)")
        #expect(try box.succeed("ls", "-a").lines.contains("The Long Road Band - Double Live (1977)"), "no counts outside a view, as before")
    }

    @Test func definitionsHaveHistoryAndRollBack() throws {
        let box = try Self.worked()
        let edit = try box.succeed("taglist", "edit", "mix", "+#japanese")
        #expect(edit.stdout.contains("rules: +#english,#french -#french -@year:<2000 → +#japanese"), "\(edit)")
        #expect(try Self.albums(box, "--view", "mix") == ["Hljóð og þögn"])
        // show --as-of: what the taglist held then, by its definition then.
        #expect(try box.succeed("taglist", "show", "mix", "--as-of", "HEAD~1", "-a", "-f", "$album").lines == ["Double Live", "Night Drive"])
        try box.succeed("taglist", "edit", "mix", "--rename", "Nippon")
        #expect(try box.succeed("taglist", "ls").lines.first?.hasPrefix("Nippon") == true)
        let history = try box.history()
        #expect(history.prefix(3).map(\.kind) == ["taglist", "taglist", "taglist"])
        #expect(history.prefix(3).map(\.label) == ["taglist edit mix → Nippon", "taglist edit mix", "taglist add mix"])
        try box.succeed("undo", "2", "-y")
        #expect(try decodeJSON([TaglistRow].self, try box.succeed("taglist", "ls", "--json").stdout).map(\.clauses)
                == [["+#english,#french", "-#french", "-@year:<2000"]])
        try box.succeed("taglist", "rm", "mix")
        #expect(try box.succeed("taglist", "ls", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n]")
        try box.succeed("undo", "-y")
        #expect(try Self.albums(box, "--view", "mix") == ["Double Live", "Night Drive"])
        try box.succeed("rollback", "5", "-y")
        #expect(try box.succeed("taglist", "ls", "--json").stdout.contains("[\n]"))
        #expect(try box.succeed("verify").succeeded)
    }

    @Test func whatIfSaysWhichTaglistsGainAndLoseAndChangesNothing() throws {
        let box = try Self.worked()
        let before = try box.listing()
        let dry = try box.succeed("modify", "album:Night Drive", "year=1990", "--dry-run")
        #expect(dry.stdout.contains("Taglists:\n  mix: loses 4\n"), "\(dry)")
        #expect(dry.stdout.contains("    - Various Artists") || dry.stdout.contains("    - "), "\(dry)")
        let tag = try box.succeed("tag", "album:Retro Hits", "+#english", "--dry-run")
        #expect(tag.stdout.contains("  mix: gains 1\n    + Old Timer - Retro Hits - Eight Bit Song"), "\(tag)")
        let none = try box.succeed("modify", "album:Blue Sketches", "comment=x", "--dry-run")
        #expect(!none.stdout.contains("Taglists:"), "\(none)")
        #expect(try box.listing() == before)
        #expect(try box.historyCount() == 6)
    }

    @Test func mistakesAreOneLineErrorsAndChangeNothing() throws {
        let box = try Self.worked()
        for args in [["taglist", "add", "mix", "+#x"], ["taglist", "add", "bad", "+@yeer:3"], ["taglist", "show", "nope"],
                     ["ls", "--view", "nope"], ["taglist", "rm", "nope"], ["taglist", "edit", "mix", "+count(#x:) <"],
                     ["taglist", "add", "  ", "+#x"], ["taglist", "edit", "mix"]] {
            let run = try box.boomic(args)
            #expect(!run.succeeded && run.errorLines.count == 1 && run.stdout.isEmpty, "\(args): \(run)")
        }
        #expect(try box.historyCount() == 6)
        // An option's value is never rewritten as a negated query term.
        try box.succeed("taglist", "edit", "mix", "--rename=-best: of")
        #expect(try box.succeed("taglist", "ls").lines.first?.hasPrefix("-best: of") == true)
        try box.succeed("taglist", "edit", "--rename", "mix", "--", "-best: of")
        let suggestion = try box.boomic("ls", "--view", "mi")
        #expect(suggestion.stderr.contains("did you mean 'mix'?"), "\(suggestion)")
    }

    @Test func taglistsSurviveCheckpointsExportAndImport() throws {
        let box = try Self.worked()
        try box.succeed("verify", "--repair")
        #expect(try Self.albums(box, "--view", "mix") == ["Double Live", "Night Drive"])
        let export = try box.succeed("export")
        let other = try Sandbox(samples: false)
        let file = other.root + "/export.jsonl"
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: file))
        try other.succeed("import-json", file)
        #expect(try other.succeed("taglist", "ls", "--json").stdout == (try box.succeed("taglist", "ls", "--json").stdout))
    }
}
