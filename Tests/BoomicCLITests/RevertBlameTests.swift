import BoomicTestSupport
import Foundation
import Testing

/// `revert REF` takes back one transaction and keeps every later change; `blame` says which
/// transaction set each value; `undo`/`redo` work across every kind of transaction (issue 4,
/// items 2 and 3), through the real binary.
@Suite struct RevertBlameTests {
    static let modal = "Miles Quartet - Blue Sketches - So Modal"

    @Test func revertTakesBackOneEditAndKeepsEveryLaterChange() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "year=1999", "-y")
        try box.succeed("modify", "title:So Modal", "comment=later", "-y")
        try box.succeed("modify", "title:Blue in Grey", "genre=Bebop", "-y")
        let listed = try box.listing()
        let before = try box.songs()

        let dry = try box.boomic("revert", "2", "--dry-run")
        #expect(dry.succeeded && dry.stderr.isEmpty, "the later comment edit is no conflict: \(dry)")
        #expect(dry.lines.first == "~ \(Self.modal)" && dry.lines.contains("    year: 1999 → 1969"), "\(dry)")
        #expect(!dry.stdout.contains("comment:") && dry.lines.last == "Dry run: 1 song would change.", "\(dry)")
        #expect(try box.historyCount() == 4)
        #expect(try box.listing() == listed)

        let run = try box.boomic("revert", "2", "-y", "-m", "1969 after all")
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
        #expect(run.lines.last == "Reverted 2 (transaction 5); 'boomic undo' takes it back.", "\(run)")
        #expect(try box.songs() == HistoryCommandTests.expect(before, where: { $0.title == "So Modal" }) { $0.year = 1969 },
                "only the year goes back; the comment and the other song keep their later edits")
        let history = try box.history()
        #expect(history.first?.kind == "revert" && history.first?.label == "revert 2: modify year=1999 (1 song)", "\(history)")
        let show = try box.succeed("show", "HEAD")
        #expect(show.lines.contains("message:  1969 after all") && show.lines.contains("    year: 1999 → 1969"), "\(show)")

        // blame names the revert for the year, the edit for the comment.
        let blame = try decodeJSON([BlameRow].self, try box.succeed("blame", "title:So Modal", "year", "comment", "--json").stdout)
        #expect(blame.map(\.field) == ["year", "comment"])
        #expect(blame.map(\.seq) == [5, 3])
        #expect(blame.first?.kind == "revert" && blame.first?.value == .number(1969))

        // undo takes the revert back, redo brings it back.
        let after = try box.listing()
        try box.succeed("undo", "-y")
        #expect(try box.listing() == listed, "undo of the revert")
        try box.succeed("redo", "-y")
        #expect(try box.listing() == after, "redo of the revert")

        // Reverting it again changes nothing and commits nothing.
        let again = try box.succeed("revert", "2", "-y")
        #expect(again.stdout == "Nothing to revert.\n", "\(again)")
        #expect(try box.historyCount() == 7)
        expectOneLineError(try box.boomic("revert", "0", "-y"), "state 0")
        expectOneLineError(try box.boomic("revert", "8", "-y"), "there is no transaction 8")
        #expect(try box.historyCount() == 7)
    }

    @Test func aConflictingFieldIsReportedAndLeftAloneUnlessForced() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "genre=Bebop", "-y")
        try box.succeed("modify", "title:So Modal", "genre=Hardbop", "-y")
        let listed = try box.listing()
        let conflict = "conflict: \(Self.modal): genre is now Hardbop, not Bebop"

        for args in [["--dry-run"], ["-y"]] {
            let run = try box.boomic(["revert", "2"] + args)
            #expect(run.succeeded, "\(run)")
            #expect(run.errorLines == [conflict + "; left alone (use --force to overwrite)"], "\(args): \(run)")
            #expect(run.stdout == "Nothing to revert.\n", "\(args): the only field conflicts: \(run)")
            #expect(try box.historyCount() == 3, "\(args): nothing committed")
            #expect(try box.listing() == listed, "\(args)")
        }

        // The edit is still an edit: a rescan of the file, retagged elsewhere, keeps it.
        try box.retag(RescanTests.modal, ["comment": "retagged"])
        let rescan = try box.succeed("import")
        #expect(rescan.stdout.hasPrefix("Imported: 0 added, 1 changed,"), "\(rescan)")
        let song = try box.song("title:So Modal")
        #expect(song.genre == "Hardbop", "the library's genre survives a rescan after the conflicting revert")
        #expect(song.comment == "retagged")
        let count = try box.historyCount()
        let rescanned = try box.listing()

        let forced = try box.boomic("revert", "2", "--force", "-y")
        #expect(forced.succeeded, "\(forced)")
        #expect(forced.errorLines == [conflict + "; overwriting (--force)"], "\(forced)")
        #expect(forced.stdout.contains("    genre: Hardbop → Jazz"), "\(forced)")
        let reverted = try box.song("title:So Modal")
        #expect(reverted.genre == "Jazz" && reverted.comment == "retagged", "\(reverted)")
        #expect(try box.historyCount() == count + 1)

        try box.succeed("undo", "-y")
        #expect(try box.listing() == rescanned, "undo takes the forced revert back")
    }

    /// Blame over more than one page of the log (the CLI reads it backwards 64 transactions at a
    /// time): the log is the real one plus 70 edits of another song, through import-json.
    /// A name conflict is left alone even with --force (two lists of one name could not be told
    /// apart), so --force must not claim to overwrite it (issue 9, item 2.16).
    @Test func forceDoesNotClaimToOverwriteANameConflict() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("taglist", "add", "mix", "+#jazz")
        try box.succeed("taglist", "rm", "mix")
        try box.succeed("taglist", "add", "MIX", "+#rock")
        let history = try box.history()
        let run = try box.boomic("revert", "3", "--force", "-y")  // 1 is the import, 3 the rm
        #expect(run.succeeded && run.stdout == "Nothing to revert.\n", "\(run)")
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains("left alone"), "\(run)")
        #expect(!run.stderr.contains("overwriting"), "\(run)")
        #expect(try box.history() == history)
    }

    @Test func blameNamesTheTransactionThatSetEachValue() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "genre=Bebop", "year=1961", "-y")
        try box.succeed("modify", "title:So Modal", "genre=Hardbop", "-y")
        try box.succeed("tag", "title:So Modal", "+#modal", "-y")
        let other = try box.song("title:Eight Bit Song")
        var lines = try box.exportLines()
        let real = lines.compactMap(ExportLines.id)
        try #require(real.count == 4)
        var parent = real[3], comment: Any = other.comment ?? NSNull()
        let t0 = Date().timeIntervalSince1970
        for k in 1...70 {
            let id = UUID().uuidString.lowercased()
            let t: [String: Any] = [
                "id": id, "parent": parent, "timestamp": t0 + Double(k), "kind": "edit", "label": "modify comment=c\(k) (1 song)",
                "provenance": ["command": "boomic modify 'title:Eight Bit Song' comment=c\(k)", "version": "test"],
                "assertions": [["update": ["id": other.id, "fields": ["comment": ["old": comment, "new": "c\(k)"]]]]],
            ]
            let data = try JSONSerialization.data(withJSONObject: ["seq": 4 + k, "transaction": t], options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
            parent = id
            comment = "c\(k)"
        }
        let long = try Sandbox(samples: false)
        try long.succeed("import-json", try box.exportFile("long.jsonl", lines))
        let history = try long.history()
        try #require(history.count == 74)
        let time = Dictionary(uniqueKeysWithValues: history.map { ($0.seq, $0.time) })

        let rows = try decodeJSON([BlameRow].self, try long.succeed("blame", "title:So Modal", "genre", "year", "title", "comment", "--json").stdout)
        #expect(rows.map(\.field) == ["genre", "year", "title", "comment"])
        #expect(rows.map(\.seq) == [3, 2, 1, 1], "genre set twice: the second; the rest by their edit or the import")
        #expect(rows.map(\.transaction) == [real[2], real[1], real[0], real[0]])
        #expect(rows.map(\.value) == [.string("Hardbop"), .number(1961), .string("So Modal"), nil])
        #expect(rows.map(\.kind) == ["edit", "edit", "import", "import"])
        #expect(rows.map(\.label) == ["modify genre=Hardbop (1 song)", "modify genre=Bebop year=1961 (1 song)",
                                      "import: \(ManifestEntry.good.count) new", "import: \(ManifestEntry.good.count) new"])
        #expect(rows.map(\.time) == [3, 2, 1, 1].map { time[$0] })
        #expect(rows.allSatisfy { $0.path == box.file(RescanTests.modal) && $0.id == rows[0].id })

        let otherRows = try decodeJSON([BlameRow].self, try long.succeed("blame", "title:Eight Bit Song", "comment", "genre", "--json").stdout)
        #expect(otherRows.map(\.seq) == [74, 1] && otherRows.first?.value == .string("c70"), "\(otherRows)")
        let album = try decodeJSON([BlameRow].self, try long.succeed("blame", "album:Blue Sketches", "genre", "--json").stdout)
        #expect(album.count == 3 && album.filter { $0.seq == 3 }.count == 1 && album.filter { $0.seq == 1 }.count == 2, "\(album)")

        // Without fields: every tag and library field that has a value, tags included.
        let all = try decodeJSON([BlameRow].self, try long.succeed("blame", "title:So Modal", "--json").stdout)
        #expect(all.first { $0.field == "tags" }?.seq == 4 && all.first { $0.field == "genre" }?.seq == 3, "\(all)")
        #expect(!all.contains { $0.field == "comment" }, "no value, no row")

        let text = try long.succeed("blame", "title:So Modal", "genre", "year")
        #expect(text.lines.count == 3 && text.lines[0] == Self.modal, "\(text)")
        #expect(text.lines[1].hasPrefix("  genre ") && text.lines[1].contains(" Hardbop ") && text.lines[1].hasSuffix(" modify genre=Hardbop (1 song)")
                && text.lines[1].contains("← 3 "), "\(text)")
        #expect(text.lines[2].hasPrefix("  year ") && text.lines[2].contains("← 2 "), "\(text)")
    }

    /// After each kind of change (the first import, an edit, a rescan, a revert, a rollback),
    /// undo gives back the very listing before it and redo the one after it.
    @Test func undoAndRedoWorkAcrossImportRescanRevertAndRollback() throws {
        let box = try Sandbox()
        try box.succeed("init")
        let steps: [(String, () throws -> Void)] = [
            ("import", { try box.importSamples() }),
            ("modify", { try box.succeed("modify", "title:So Modal", "year=1999", "-y") }),
            ("rescan", {
                try box.retag(RescanTests.opening, ["title": "Opening Night"])
                try box.succeed("import")
            }),
            ("revert", { try box.succeed("revert", "4", "-y") }),  // the year edit (seq 4 after the import's undo and redo)
            ("rollback", { try box.succeed("rollback", "1", "-y") }),
        ]
        for (name, step) in steps {
            let before = try box.listing()
            let count = try box.historyCount()
            try step()
            let after = try box.listing()
            #expect(after != before, "\(name) changed nothing")
            #expect(try box.historyCount() == count + 1, "\(name)")
            try box.succeed("undo", "-y")
            #expect(try box.listing() == before, "undo after \(name)")
            try box.succeed("redo", "-y")
            #expect(try box.listing() == after, "redo after \(name)")
            #expect(try box.history().prefix(3).map(\.kind) == ["redo", "undo", name == "modify" ? "edit" : name],
                    "\(name)")
        }
        #expect(try box.history().first { $0.kind == "revert" }?.label == "revert 4: modify year=1999 (1 song)")
        // undo 5 from here walks back to the state before the first import.
        try box.succeed("undo", "5", "-y")
        #expect(try box.songs() == [])
    }
}

/// One row of `boomic blame --json`.
struct BlameRow: Decodable, Equatable {
    var id, path, field: String
    var value: JSONValue?
    var seq: Int
    var transaction, time, kind, label: String
}
