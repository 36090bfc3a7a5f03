import BoomicTestSupport
import Foundation
import Testing

/// modify, tag, history, show, rollback, undo and redo end to end, checking the whole
/// `ls --json` after each step (DESIGN §1 "Rollback never destroys history").
@Suite struct HistoryCommandTests {
    /// `songs` with the given change applied to the songs `where` picks: the expected state.
    static func expect(_ songs: [SongRecord], where pick: (SongRecord) -> Bool,
                       _ change: (inout SongRecord) -> Void) -> [SongRecord] {
        songs.map { s in
            guard pick(s) else { return s }
            var s = s
            change(&s)
            return s
        }
    }

    @Test func modifyChangesExactlyTheMatchingSongsInOneTransaction() throws {
        let box = try Sandbox()
        try box.importSamples()
        let before = try box.songs()

        let run = try box.boomic("modify", "album:Blue Sketches", "genre=Cool Jazz", "year=1970", "-m", "they were cooler", "-y")

        #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
        #expect(run.lines.last == "Modified 3 songs (transaction 2); 'boomic undo' takes it back.", "\(run)")
        #expect(run.stdout.contains("genre: Jazz → Cool Jazz"), "the change is shown as old → new:\n\(run.stdout)")
        let expected = Self.expect(before, where: { $0.album == "Blue Sketches" }) {
            $0.genre = "Cool Jazz"; $0.year = 1970
        }
        #expect(try box.songs() == expected)
        let history = try box.history()
        #expect(history.map(\.seq) == [2, 1])
        #expect(history.first?.kind == "edit")
        #expect(history.first?.label == "modify genre=Cool Jazz year=1970 (3 songs)")

        // show: provenance, the message, and every field old → new.
        let show = try box.succeed("show", "HEAD")
        #expect(show.stdout.contains("message:  they were cooler"), "\(show)")
        #expect(show.stdout.contains("kind:     edit"), "\(show)")
        #expect(show.stdout.contains("command:  boomic --library \(box.library) modify 'album:Blue Sketches'"), "\(show)")
        #expect(show.stdout.components(separatedBy: "genre: Jazz → Cool Jazz").count - 1 == 3, "\(show)")
        #expect(show.stdout.components(separatedBy: "year: 1969 → 1970").count - 1 == 3, "\(show)")
        #expect(try box.succeed("show", "2").stdout == show.stdout, "HEAD and 2 name the same transaction")
    }

    /// A history line is one line: a pasted lyric is cut in the label, with its length, and
    /// kept whole in the song.
    @Test func aLongValueIsCutInTheLabelOnly() throws {
        let box = try Sandbox()
        try box.importSamples()
        let lyrics = (1...400).map { "line \($0) of the song" }.joined(separator: "\n")
        let run = try box.succeed("modify", "title:So Modal", "lyrics=\(lyrics)", "-y")
        #expect(run.lines.last == "Modified 1 song (transaction 2); 'boomic undo' takes it back.", "\(run.lines.last ?? "")")
        let label = try #require(try box.history().first?.label)
        #expect(label.hasPrefix("modify lyrics=line 1 of the song\\nline 2 of the song\\nline 3"), "\(label)")
        #expect(label.hasSuffix("… (\(lyrics.count) characters) (1 song)"), "\(label)")
        #expect(label.count < 120 && !label.contains("\n"), "\(label)")
        let listed = try box.succeed("ls", "--json", "title:So Modal").stdout
        let songs = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(songs.first?["lyrics"] as? String == lyrics)
    }

    @Test func showJSONIsTheTransactionWithItsMessage() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "comment=first take", "-m", "liner notes", "-y")
        let run = try box.succeed("show", "--json", "HEAD")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        try #require(shown.count == 1)
        #expect(shown[0]["seq"] as? Int == 2)
        let t = try #require(shown[0]["transaction"] as? [String: Any])
        let provenance = t["provenance"] as? [String: Any]
        #expect(provenance?["message"] as? String == "liner notes")
        #expect(t["kind"] as? String == "edit")
        #expect((t["assertions"] as? [Any])?.count == 1)
        #expect(!run.stdout.contains("\\/"))
    }

    /// Scripts join `show --json` with `history --json` and `ls --json` on ids, so the three
    /// must spell an id the same way.
    @Test func showJSONSpellsIdsAsHistoryAndLsDo() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "comment=x", "-y")
        let song = try box.song("title:So Modal")
        let transaction = try #require(try box.history().first)
        let run = try box.succeed("show", "--json", "HEAD")
        #expect(run.stdout.contains("\"\(transaction.id)\""), "transaction id \(transaction.id) as history prints it:\n\(run.stdout)")
        #expect(run.stdout.contains("\"\(song.id)\""), "song id \(song.id) as ls prints it:\n\(run.stdout)")
    }

    @Test func dryRunAndNoOpModifyCommitNothing() throws {
        let box = try Sandbox()
        try box.importSamples()
        let listed = try box.listing()

        let dry = try box.boomic("modify", "artist:Miles", "genre=Bebop", "--dry-run")
        #expect(dry.succeeded && dry.stderr.isEmpty, "\(dry)")
        #expect(dry.lines.last == "Dry run: 3 songs would change.", "\(dry)")
        #expect(dry.stdout.contains("genre: Jazz → Bebop"), "\(dry)")

        let same = try box.boomic("modify", "artist:Miles", "genre=Jazz", "-y")
        #expect(same.succeeded && same.stderr.isEmpty, "\(same)")
        #expect(same.stdout == "No changes to make.\n")

        let nobody = try box.boomic("modify", "artist:Nobody At All", "genre=Jazz", "-y")
        #expect(nobody.succeeded && nobody.stdout == "No changes to make.\n", "\(nobody)")

        let tagDry = try box.boomic("tag", "artist:Miles", "+#jazz", "--dry-run")
        #expect(tagDry.succeeded && tagDry.lines.last == "Dry run: 3 songs would change.", "\(tagDry)")

        #expect(try box.historyCount() == 1)
        #expect(try box.listing() == listed)
    }

    @Test func tagAddsAndRemovesNestedTags() throws {
        let box = try Sandbox()
        try box.importSamples()
        let before = try box.songs()

        try box.succeed("tag", "artist:Miles", "+#jazz", "+#instruments:trumpet", "+#instruments:piano", "-y")
        #expect(try box.songs() == Self.expect(before, where: { $0.artist == "Miles Quartet" }) {
            $0.tags = ["#instruments:piano", "#instruments:trumpet", "#jazz"]
        })
        #expect(try box.songs("#instruments:").count == 3)
        #expect(try box.history().first?.kind == "tag")

        // Removing a parent removes its children; ^ is the same as -.
        try box.succeed("tag", "artist:Miles", "^#instruments", "-y")
        #expect(try box.songs() == Self.expect(before, where: { $0.artist == "Miles Quartet" }) { $0.tags = ["#jazz"] })

        let again = try box.succeed("tag", "artist:Miles", "+#jazz", "-y")
        #expect(again.stdout == "No changes to make.\n")
        #expect(try box.historyCount() == 3)
    }

    /// After any changing command, `undo` gives back the very bytes `ls --json` printed before
    /// it, and `redo` the ones after it.
    @Test func undoAndRedoGiveBackTheExactListing() throws {
        let box = try Sandbox()
        try box.importSamples()
        let commands: [[String]] = [
            ["modify", "album:Blue Sketches", "genre=Cool", "-y"],
            ["tag", "artist:Miles", "+#jazz", "+#instruments:trumpet", "-y"],
            ["modify", "title:So Modal", "genre!", "composer!", "-y"],
            ["modify", "artist:Long Road", "artist=Road Band; A Guest", "rating=3", "-y"],
            ["tag", "artist:Miles", "-#instruments", "-y"],
            ["rollback", "1", "-y"],
            ["modify", "comment=everything", "-y"],
            ["rescan"],
        ]
        var seen: [String] = []
        for command in commands {
            let before = try box.listing()
            seen.append(before)
            if command == ["rescan"] {
                try box.retag(RescanTests.opening, ["title": "Opening Night"])
                try box.succeed("import")
            } else {
                try box.succeed(command)
            }
            let after = try box.listing()
            #expect(after != before, "\(command) changed nothing")
            let count = try box.historyCount()

            let undo = try box.boomic("undo", "-y")
            #expect(undo.succeeded && undo.stderr.isEmpty, "\(undo)")
            #expect(try box.listing() == before, "undo after \(command)")
            let redo = try box.boomic("redo", "-y")
            #expect(redo.succeeded && redo.stderr.isEmpty, "\(redo)")
            #expect(try box.listing() == after, "redo after \(command)")

            let history = try box.history()
            #expect(history.count == count + 2)
            #expect(history.prefix(2).map(\.kind) == ["redo", "undo"])
        }
        // Nothing more to redo; undo N walks back N changes at once (redos count as the change
        // they bring back).
        let nothing = try box.boomic("redo", "-y")
        #expect(nothing.status == 1 && nothing.stdout.isEmpty && nothing.errorLines == ["Error: nothing to redo"], "\(nothing)")
        try box.succeed("undo", "3", "-y")
        #expect(try box.listing() == seen[seen.count - 3], "undo 3")
        try box.succeed("redo", "-y")
        #expect(try box.listing() == seen[seen.count - 2], "redo after undo 3")
    }

    @Test func rollbackToZeroEmptiesTheLibraryAndUndoBringsItBack() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("tag", "artist:Miles", "+#jazz", "-y")
        let listed = try box.listing()

        let run = try box.boomic("rollback", "0", "-y")
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
        #expect(run.lines.last?.hasPrefix("Done: rollback to 0 (\(ManifestEntry.good.count) songs) (transaction 3)") == true, "\(run)")
        #expect(try box.songs() == [])
        #expect(try box.history().map(\.kind) == ["rollback", "tag", "import"], "a rollback adds to the history")
        // Files are never touched.
        #expect(FileManager.default.fileExists(atPath: box.file(RescanTests.modal)))

        let already = try box.succeed("rollback", "0", "-y")
        #expect(already.stdout == "The library is already as it was at 0; nothing to do.\n")
        #expect(try box.historyCount() == 3)

        try box.succeed("undo", "-y")
        #expect(try box.listing() == listed)
        #expect(try box.historyCount() == 4)
    }

    /// `rollback k` makes the library what `ls --as-of k` shows, for every k, in any order.
    @Test func rollbackToKEqualsAsOfK() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Cool", "-y")
        try box.succeed("tag", "artist:Sigrún", "+#iceland", "-y")
        try box.retag(RescanTests.opening, ["title": "Opening Night"])
        try box.succeed("import")
        try box.succeed("modify", "year:1977", "rating=4", "-y")
        let head = 5
        #expect(try box.historyCount() == head)

        let states = try (0...head).map { try box.listing(asOf: String($0)) }
        #expect(Set(states).count == states.count, "every transaction changed something")
        #expect(try SongRecord.decode(states[0]) == [])
        #expect(try box.listing() == states[head])
        #expect(try box.listing(asOf: "HEAD") == states[head])
        #expect(try box.listing(asOf: "HEAD~2") == states[head - 2])
        let second = try #require(try box.history().first { $0.seq == 2 })
        #expect(try box.listing(asOf: String(second.id.prefix(8))) == states[2])
        #expect(try box.listing(asOf: "2000-01-01") == states[0], "a date before the library")
        #expect(try box.listing(asOf: "2999-12-31T23:59") == states[head], "a date after every change")
        #expect(try box.historyCount() == head, "--as-of is read-only")

        var count = head
        for k in [2, 0, 4, 1, 3, 5, 5] {
            let run = try box.boomic("rollback", String(k), "-y")
            #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
            #expect(try box.listing() == states[k], "rollback \(k)")
            if try box.historyCount() > count { count += 1 }
            #expect(try box.historyCount() == count)
        }
        #expect(count == head + 6, "the second rollback to 5 changes nothing and commits nothing")
        // Every earlier state is still there after all the rollbacks.
        for k in 0...head { #expect(try box.listing(asOf: String(k)) == states[k]) }
    }

    @Test func historyListsEveryStepNewestFirst() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "rating=5", "-y")
        try box.succeed("tag", "title:So Modal", "+#best", "-y")
        try box.succeed("undo", "-y")

        let history = try box.history()
        #expect(history.map(\.seq) == [4, 3, 2, 1])
        #expect(history.map(\.kind) == ["undo", "tag", "edit", "import"])
        #expect(history.map(\.label) == ["undo 3 (1 song)", "tag +#best (1 song)", "modify rating=5 (1 song)",
                                         "import: \(ManifestEntry.good.count) new"])
        #expect(Set(history.map(\.id)).count == 4)

        let text = try box.succeed("history")
        #expect(text.lines.count == 4)
        #expect(zip(text.lines, history).allSatisfy { line, h in
            line.contains(String(h.id.prefix(8))) && line.contains(h.label) && line.hasSuffix(h.label)
        }, "\(text)")
        let two = try box.succeed("history", "-n", "2", "--json")
        #expect(try decodeJSON([HistoryRecord].self, two.stdout) == Array(history.prefix(2)))
    }

    /// `--library` works before and after the subcommand and from `$BOOMIC_LIBRARY`.
    @Test func theLibraryCanBeNamedThreeWays() throws {
        let box = try Sandbox()
        try box.importSamples()
        let listed = try box.listing()
        let after = try box.bare(["ls", "--json", "--library", box.library])
        #expect(after.succeeded && after.stdout == listed, "\(after)")
        let env = try box.bare(["ls", "--json"], environment: ["BOOMIC_LIBRARY": box.library])
        #expect(env.succeeded && env.stdout == listed, "\(env)")
        try FileManager.default.createDirectory(atPath: box.root + "/data", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: box.root + "/data/boomic", withDestinationPath: box.library)
        let xdg = try box.bare(["ls", "--json"], environment: ["XDG_DATA_HOME": box.root + "/data"])
        #expect(xdg.succeeded && xdg.stdout == listed, "$XDG_DATA_HOME/boomic: \(xdg)")
    }
}
