import Foundation
import Testing

/// Where Boomic follows beets, through the binary (issue 9, item 2.14): the user's own fields
/// (`modify mood=happy`) and bitrate in bit/s.
@Suite struct UserFieldCommandTests {
    /// `ls --json` objects as dictionaries, so that keys no record type knows can be read.
    static func objects(_ box: Sandbox, _ query: String...) throws -> [[String: Any]] {
        let text = try box.listing(query)
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func modifyCreatesAFieldThatQueriesJSONAndInfoSee() throws {
        let box = try Sandbox()
        try box.importSamples()
        let before = try box.historyCount()
        let preview = try box.succeed("modify", "artist:Miles", "mood=happy", "--dry-run")
        #expect(preview.stdout.contains("New field 'mood'"), "the preview says a field is created: \(preview)")
        // The change as the user wrote it, not the stored `name=value` list.
        #expect(preview.stdout.contains("    mood: ∅ → happy") && !preview.stdout.contains("user_fields"), "\(preview)")
        #expect(try box.historyCount() == before)

        try box.succeed("modify", "artist:Miles", "mood=happy", "-y")
        let happy = try Self.objects(box, "mood:happy")
        let miles = try box.songs("artist:Miles")
        #expect(!happy.isEmpty && happy.count == miles.count)
        #expect(happy.allSatisfy { $0["mood"] as? String == "happy" }, "--json has the field as a key")
        #expect(try Self.objects(box, "^mood:happy").allSatisfy { $0["mood"] == nil })
        #expect(try box.songs("mood:=~HAPPY").count == miles.count)
        let info = try box.succeed("info", "mood:happy")
        #expect(info.stdout.split(separator: "\n").contains { $0.hasPrefix("  mood ") && $0.hasSuffix(" happy") }, "\(info)")

        // Sorting by it: songs without it first, ascending.
        let sorted = try box.songs("mood+")
        #expect(sorted.suffix(miles.count).map(\.id).sorted() == miles.map(\.id).sorted())

        // Never in the files: there is nothing to write.
        #expect(try box.succeed("write").stdout == "Every file already holds the library's tags.\n")
        // A rescan keeps it.
        _ = try box.succeed("import")
        #expect(try box.songs("mood:happy").count == miles.count)
        // Undo takes it away, and with it the field.
        try box.succeed("undo", "-y")
        #expect(try box.boomic("ls", "mood:happy").status == 1, "no song has 'mood' any more")
    }

    @Test func aNameCloseToAKnownFieldNeedsNewField() throws {
        let box = try Sandbox()
        try box.importSamples()
        let listed = try box.listing()
        let refused = try box.boomic("modify", "artist:Miles", "yeer=1969", "-y")
        #expect(refused.status == 1 && refused.errorLines.count == 1, "\(refused)")
        #expect(refused.stderr.contains("'year'") && refused.stderr.contains("--new-field"), "\(refused)")
        #expect(try box.listing() == listed)

        try box.succeed("modify", "artist:Miles", "yeer=1969", "--new-field", "-y")
        #expect(try Self.objects(box, "yeer:1969").allSatisfy { $0["yeer"] as? String == "1969" })
        // Once it exists it is a known field: setting it again needs no flag.
        try box.succeed("modify", "yeer:1969", "yeer=1970", "-y")
        #expect(try box.songs("yeer:1970").count == box.songs("artist:Miles").count)
    }

    @Test func bitrateIsBitsPerSecondInJSONAndQueriesAndKbpsInText() throws {
        let box = try Sandbox()
        try box.importSamples()
        let songs = try box.songs()
        let rates = songs.compactMap(\.bitrate)
        #expect(!rates.isEmpty && rates.allSatisfy { $0 >= 8_000 && $0 % 1000 == 0 }, "bit/s, as beets stores it: \(rates)")
        let top = try #require(rates.max())
        #expect(try box.songs("bitrate:\(top)").count == rates.filter { $0 == top }.count)
        #expect(try box.songs("bitrate:\(top / 1000)k..").count == rates.filter { $0 == top }.count)
        #expect(try box.songs("bitrate:\(top / 1000)").isEmpty, "a bare number is bit/s")
        let text = try box.succeed("ls", "bitrate:\(top)", "-f", "$bitrate")
        #expect(text.stdout.split(separator: "\n").allSatisfy { $0 == "\(top / 1000)kbps" }, "\(text)")
    }

    // MARK: User fields where taglists, -f and blame name fields (issue 9)

    /// Blue Sketches (3 songs) happy, Double Live (4) sad; energy 7, 3 and `high` on three songs.
    static func moods() throws -> Sandbox {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "mood=happy", "-y")
        try box.succeed("modify", "album:Double Live", "mood=Sad", "-y")
        try box.succeed("modify", "title:So Modal", "energy=7", "-y")
        try box.succeed("modify", "title:Blue in Grey", "energy=3", "-y")
        try box.succeed("modify", "title:Flamenco Dusk", "energy=high", "-y")
        return box
    }

    static func titles(_ box: Sandbox, _ args: String...) throws -> [String] {
        try box.succeed(["ls", "-f", "$title"] + args).lines.sorted()
    }

    @Test func taglistRulesNameUserFields() throws {
        let box = try Self.moods()
        let before = try box.historyCount()
        try box.succeed("taglist", "add", "happy", "+@mood:HAPPY")
        #expect(try Self.titles(box, "--view", "happy") == ["Blue in Grey", "Flamenco Dusk", "So Modal"])
        // As QUERY reads them: = the whole text, folded; numbers when the rule compares numbers.
        try box.succeed("taglist", "add", "sad", "+@mood:=sad")
        #expect(try Self.titles(box, "--view", "sad").count == 4)
        try box.succeed("taglist", "add", "lively", "+@energy:>5")
        #expect(try Self.titles(box, "--view", "lively") == ["So Modal"])
        try box.succeed("taglist", "add", "middling", "+@energy:3..7", "-@mood(!=happy)")
        #expect(try Self.titles(box, "--view", "middling") == ["Blue in Grey", "So Modal"])
        #expect(try Self.titles(box, "--view", "middling") == Self.titles(box, "energy:3..7", "mood:happy"))
        // Stored and read back as typed.
        let listed = try box.succeed("taglist", "ls").stdout
        #expect(listed.contains("+@energy:3..7") && listed.contains("-@mood:!=happy"), "\(listed)")

        // What-if: a modify that moves a song into a taglist on a user field says so.
        let dry = try box.succeed("modify", "title:Flamenco Dusk", "energy=9", "--dry-run")
        #expect(dry.stdout.contains("  lively: gains 1"), "\(dry)")
        // Edit takes user fields too, and a view follows the edit.
        try box.succeed("taglist", "edit", "lively", "+@energy:>=3", "-@energy:7")
        #expect(try Self.titles(box, "--view", "lively") == ["Blue in Grey"])

        // A typo of a built-in field is still refused with a suggestion, a name no field has too.
        for (clause, hint) in [("+@yeer:1969", "did you mean 'year'?"), ("+@moood:happy", "did you mean 'mood'?"),
                               ("+@nosuchfield:x", "known fields are")] {
            let run = try box.boomic("taglist", "add", "bad", clause)
            #expect(!run.succeeded && run.errorLines.count == 1 && run.stderr.contains(hint), "\(clause): \(run)")
        }
        #expect(try box.historyCount() == before + 5)

        // The definitions survive the log being read back from scratch.
        try box.succeed("verify", "--repair")
        #expect(try Self.titles(box, "--view", "middling") == ["Blue in Grey", "So Modal"])
    }

    @Test func formatsRenderUserFields() throws {
        let box = try Self.moods()
        let lines = try box.succeed("ls", "-f", "$title: $mood/${energy}.", "album:Blue Sketches").lines.sorted()
        #expect(lines == ["Blue in Grey: happy/3.", "Flamenco Dusk: happy/high.", "So Modal: happy/7."], "\(lines)")
        // A song without the field renders it empty.
        #expect(try box.succeed("ls", "-f", "[$mood]", "album:Retro Hits").lines == ["[]"])
        // An unknown name is still an error, with the suggestion.
        for (format, hint) in [("$moood", "did you mean 'mood'?"), ("$yeer", "did you mean 'year'?")] {
            let run = try box.boomic("ls", "-f", format)
            #expect(!run.succeeded && run.errorLines.count == 1 && run.stderr.contains(hint), "\(format): \(run)")
        }
        // Wherever -f is taken: a taglist's songs.
        try box.succeed("taglist", "add", "all")
        let shown = try box.succeed("taglist", "show", "all", "-f", "$mood").lines
        #expect(shown.filter { $0 == "happy" }.count == 3 && shown.filter { $0 == "Sad" }.count == 4, "\(shown)")
    }

    @Test func blameNamesTheTransactionThatSetAUserField() throws {
        let box = try Self.moods()  // moods at 2 and 3, energy at 4, 5 and 6
        try box.succeed("modify", "title:So Modal", "grouping_x=a", "--new-field", "-y")  // 7: another user field
        let rows = try decodeJSON([BlameRow].self, try box.succeed("blame", "title:So Modal", "mood", "energy", "year", "--json").stdout)
        #expect(rows.map(\.field) == ["mood", "energy", "year"], "\(rows)")
        #expect(rows.map(\.seq) == [2, 4, 1] && rows.map(\.kind) == ["edit", "edit", "import"], "\(rows)")
        #expect(rows.map(\.value) == [.string("happy"), .string("7"), .number(1969)], "\(rows)")
        // Text: one line per field, the value as set.
        let text = try box.succeed("blame", "title:So Modal", "mood")
        #expect(text.lines.count == 2 && text.lines[1].hasPrefix("  mood ") && text.lines[1].contains("happy  ← 2 "), "\(text)")
        // A song without the field: nothing set it since the song was added.
        let none = try decodeJSON([BlameRow].self, try box.succeed("blame", "album:Retro Hits", "mood", "--json").stdout)
        #expect(none.map(\.seq) == [1] && none.first?.value == nil, "\(none)")
        // Without fields, each user field the song has is blamed on its own.
        let all = try decodeJSON([BlameRow].self, try box.succeed("blame", "title:So Modal", "--json").stdout)
        #expect(all.contains { $0.field == "energy" && $0.seq == 4 } && all.contains { $0.field == "grouping_x" && $0.seq == 7 }, "\(all)")
        #expect(!all.contains { $0.field == "user_fields" }, "\(all)")
    }

    /// A user field the library has now is a field at any earlier state too: `--as-of` a state
    /// before it was made, a query on it selects nothing instead of calling it unknown.
    @Test func aUserFieldMadeLaterIsNoUnknownFieldAsOfBefore() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "artist:Miles", "mood=happy", "--new-field", "-y")
        #expect(try box.succeed("ls", "mood:happy").lines.count == 3)
        let before = try box.boomic("ls", "--as-of", "1", "mood:happy")
        #expect(before.succeeded && before.stdout.isEmpty && before.stderr.isEmpty, "\(before)")
    }
}
