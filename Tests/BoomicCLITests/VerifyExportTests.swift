import BoomicCore
import BoomicLibrary
import BoomicStore
import BoomicTestSupport
import Foundation
import Testing

/// The checks and escape hatches (issue 4, item 5): `verify` replays the log alone and compares
/// it with the checkpoints, the art store and the files; `export` writes the log as JSON lines
/// and `import-json` rebuilds the same library from them, or refuses and imports nothing.
@Suite struct VerifyExportTests {
    /// Expects `verify` to have found something: exit 1, no "OK", the problems on stderr and a
    /// one-line summary last.
    static func expectProblem(_ run: ProcessRun, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!run.signaled && run.status == 1, "\(run)", sourceLocation: sourceLocation)
        #expect(!run.lines.contains("OK"), "\(run)", sourceLocation: sourceLocation)
        #expect(run.errorLines.last?.hasPrefix("Error: verify found") == true, "one-line summary last: \(run)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(text), "'\(text)' on stderr: \(run)", sourceLocation: sourceLocation)
    }

    static func expectHealthy(_ run: ProcessRun, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.succeeded && run.stderr.isEmpty && run.lines.last == "OK", "\(run)", sourceLocation: sourceLocation)
    }

    /// A library with a checkpoint and one transaction after it. A checkpoint falls due once 100
    /// transactions or 5,000 assertions wait for replay, so the log is the samples' import and 99
    /// edits of every song's comment (`pass 1` to `pass 99`): two made by `modify`, the rest
    /// copied from the second, loaded by `import-json` (which writes the checkpoints that fall due
    /// inside the log it loads). A tag follows, by the CLI.
    static func checkpointed() throws -> (box: Sandbox, checkpoint: Int) {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "comment=pass 1", "-y")
        try box.succeed("modify", "comment=pass 2", "-y")
        let lines = try box.exportLines()
        try #require(lines.count == 3 && lines[0].contains(#""kind":"import""#), "\(lines.count) lines")
        try box.replaceLog(lines + ExportLines.commentPasses(after: lines[2], through: 99))
        let seqs = try box.checkpointSeqs()
        try #require(seqs == [100], "checkpoints at \(seqs); the test would prove nothing")
        try box.succeed("tag", "artist:Miles", "+#after", "-y")
        return (box, seqs[0])
    }

    @Test func verifyFindsDamagedCheckpointsAndRepairRebuildsThem() throws {
        let (box, merged) = try Self.checkpointed()
        var c = merged
        let head = try box.historyCount()
        // The checkpoint is the last of the edits: the tag alone comes after it.
        #expect(try box.history().filter { $0.seq > c }.map(\.kind).first == "tag")
        let healthy = try box.boomic("verify")
        Self.expectHealthy(healthy)
        #expect(healthy.lines.first == "log: \(head) transactions read, checksums good; 1 checkpoint compared", "\(healthy)")
        #expect(healthy.lines.contains("files: \(ManifestEntry.good.count) of \(ManifestEntry.good.count) present"), "\(healthy)")
        let listed = try box.listing()
        let good = try box.checkpointData(c)

        // Bytes flipped on disk: the checksum no longer matches. Opening skips the checkpoint
        // (it is a cache), so the library reads right, but verify must say it is damaged.
        var flipped = good
        for i in (good.count / 2)..<(good.count / 2 + 16) { flipped[i] ^= 0xA5 }
        try box.storeCheckpoint(c, data: flipped, checksum: nil)
        #expect(try box.listing() == listed, "a damaged checkpoint is skipped")
        Self.expectProblem(try box.boomic("verify"), "checkpoint \(c)")
        let repair = try box.boomic("verify", "--repair")
        // The repair rebuilds them where the policy falls due (every 100 transactions here),
        // which is where the damaged one was (a merge may land one later).
        let seqs = try box.checkpointSeqs()
        try #require(seqs.count == 1 && seqs[0] <= c && repair.stdout.contains("checkpoints rebuilt at \(seqs[0])\n"), "\(seqs) \(repair)")
        c = seqs[0]
        Self.expectHealthy(try box.boomic("verify"))
        #expect(try box.checkpointData(c) != flipped)
        let after = try box.history().filter { $0.seq > c }.map(\.kind)
        #expect(after.count == head - c && after.contains("tag"), "\(after)")

        // A checkpoint that decodes, with good checksums, to the wrong library (a bug in an
        // older encoder, say): opening reads it, so the library itself reads wrong until repaired.
        // Bytes edited in place no longer pass the image's own block checksums, so the wrong
        // image is written whole by the codec.
        let stored = try BasisCodec.decode(ImageBytes(copying: box.checkpointData(c)))
        let jazz = try #require(stored.songs.values.first { $0.genre == "Jazz" }, "no Jazz in the checkpoint")
        var jizz = jazz
        jizz.genre = "Jizz"
        let wrong = try BasisCodec.encode(stored.applying([.updateSong(jazz.id, jazz.patch(to: jizz))]))
        try box.storeCheckpoint(c, data: wrong, checksum: "xxh64:" + XXH64.hex(wrong))
        #expect(try box.songs().contains { $0.genre == "Jizz" }, "the setup: the library is read from the checkpoint")
        let found = try box.boomic("verify")
        Self.expectProblem(found, "checkpoint \(c) differs from the log")
        #expect(found.stderr.contains("the opened library differs from the log"), "\(found)")
        let repaired = try box.boomic("verify", "--repair")
        #expect(repaired.stdout.contains("checkpoints rebuilt at \(c)"), "\(repaired)")
        Self.expectHealthy(try box.boomic("verify"))
        #expect(try box.listing() == listed, "repaired")
        #expect(try box.historyCount() == head, "verify and its repair commit nothing")

        // A checkpoint with a good checksum whose header is nonsense (a song blob longer than
        // Int.max, or than the checkpoint): skipped like a damaged one, never a crash.
        for header in [[UInt8](repeating: 0xFF, count: 8), [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7F]] {
            var hostile = try box.checkpointData(c)
            hostile.replaceSubrange(0..<8, with: header)
            try box.storeCheckpoint(c, data: hostile, checksum: "xxh64:" + XXH64.hex(hostile))
            #expect(try box.listing() == listed, "header \(header): the checkpoint is skipped, the log replayed")
            Self.expectProblem(try box.boomic("verify"), "checkpoint \(c)")
            #expect(try box.boomic("verify", "--repair").succeeded)
        }

        // A damaged transaction (before the checkpoint, so the library still opens): verify
        // names it; export fails without leaving a partial file, old or new.
        _ = try box.sqlite("""
            body = db.execute('SELECT body FROM log WHERE seq = 2').fetchone()[0]
            db.execute('UPDATE log SET body = ? WHERE seq = 2', (body.replace('pass 1', 'PASS 1', 1),))
            db.commit()
            """)
        Self.expectProblem(try box.boomic("verify"), "transaction 2 is unreadable")
        let old = box.root + "/old.jsonl", new = box.root + "/new.jsonl"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: old))
        for file in [old, new] {
            let run = try box.boomic("export", "-o", file)
            expectOneLineError(run, "Transaction 2 in the log is damaged")
            #expect(FileManager.default.contents(atPath: old) == Data("old\n".utf8), "the file written before is untouched")
            #expect(!FileManager.default.fileExists(atPath: new), "no partial export")
            let litter = try FileManager.default.contentsOfDirectory(atPath: box.root).filter { $0.hasPrefix("old.jsonl.") || $0.hasPrefix("new.jsonl.") }
            #expect(litter.isEmpty, "a failed export leaves no temporary file behind: \(litter)")
        }

        // verify's advice works (issue 9, 2.2): the salvage starts from the checkpoint, which is
        // past the damage, and keeps the transactions after it.
        let salvage = box.root + "/salvage.jsonl"
        let saved = try box.boomic("export", "--salvage", "-o", salvage)
        #expect(saved.succeeded && saved.stderr.contains("kept the state after transaction \(c) (from its checkpoint) and \(head - c) transaction")
                && saved.stderr.contains("lost: 2\n"), "\(saved)")
        let rebuilt = try Sandbox(samples: false)
        try rebuilt.succeed(["import-json", salvage])
        try FileManager.default.copyItem(atPath: box.library + "/art", toPath: rebuilt.library + "/art")
        #expect(try Fault.canonical(rebuilt.listing(), dropping: []) == Fault.canonical(listed, dropping: []),
                "the salvage is not the library")
        #expect(try rebuilt.history().map(\.kind) == after + ["salvage"], "one transaction for the checkpoint, then the ones after it")
        Self.expectHealthy(try rebuilt.boomic("verify"))
    }

    @Test func verifyReportsMissingArtAndAudioFiles() throws {
        let box = try Sandbox()
        try box.importSamples()
        Self.expectHealthy(try box.boomic("verify"))
        let total = ManifestEntry.good.count

        let artDir = box.library + "/art"
        let pictures = try FileManager.default.contentsOfDirectory(atPath: artDir).sorted()
        try #require(pictures.count >= 2)
        try FileManager.default.moveItem(atPath: artDir + "/" + pictures[0], toPath: box.root + "/" + pictures[0])
        let noArt = try box.boomic("verify")
        Self.expectProblem(noArt, "problem: 1 cover is missing from art/")
        #expect(noArt.lines.contains("art: \(pictures.count) pictures referenced, \(pictures.count - 1) present"), "\(noArt)")
        #expect(noArt.errorLines.count == 2 && noArt.errorLines.first == "problem: 1 cover is missing from art/; run 'boomic import' to store them again",
                "\(noArt)")
        // The way out verify names: import stores the cover again.
        try box.succeed("import")
        Self.expectHealthy(try box.boomic("verify"))
        if !FileManager.default.fileExists(atPath: artDir + "/" + pictures[0]) {
            try FileManager.default.moveItem(atPath: box.root + "/" + pictures[0], toPath: artDir + "/" + pictures[0])
        }

        // An audio file gone behind the library's back.
        try FileManager.default.removeItem(atPath: box.file(RescanTests.modal))
        let noFile = try box.boomic("verify")
        Self.expectProblem(noFile, "missing file: \(box.file(RescanTests.modal))")
        #expect(noFile.lines.contains("files: \(total - 1) of \(total) present; run 'boomic import' to mark the 1 gone ones missing"), "\(noFile)")
        // Once a rescan has marked it missing, the library knows: nothing wrong, and the song
        // is counted as missing, not present.
        try box.succeed("import")
        let marked = try box.boomic("verify")
        Self.expectHealthy(marked)
        #expect(marked.lines.contains("files: \(total - 1) of \(total) present, 1 marked missing"), "\(marked)")
    }

    @Test func exportThenImportJSONIsTheSameLibrary() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Cool", "-y", "-m", "why not")
        try box.succeed("tag", "artist:Sigrún", "+#iceland", "-y")
        try box.succeed("undo", "-y")
        try box.succeed("redo", "-y")
        try box.retag(RescanTests.opening, ["title": "Opening Night"])
        try box.succeed("import")
        try box.succeed("revert", "2", "-y")
        try box.succeed("rollback", "3", "-y")
        try box.succeed("undo", "-y")
        let history = try box.history()
        #expect(Set(history.map(\.kind)) == ["import", "edit", "tag", "undo", "redo", "rescan", "revert", "rollback"])

        let stdout = try box.exportLines()
        #expect(stdout.count == history.count)
        let file = box.root + "/log.jsonl"
        let written = try box.boomic("export", "-o", file)
        #expect(written.succeeded && written.stdout.isEmpty && written.errorLines == ["exported \(history.count) transactions to \(file)"], "\(written)")
        let end = try box.endLine(transactions: stdout.count)
        #expect(end == #"{"end":{"folders":["\#(box.music)"],"transactions":\#(stdout.count)}}"#, "the end line names the music folder")
        #expect(FileManager.default.contents(atPath: file) == Data((stdout + [end]).map { $0 + "\n" }.joined().utf8),
                "-o writes what stdout gets")

        let copy = try Sandbox(samples: false)
        let imported = try copy.succeed("import-json", file)
        #expect(imported.stdout == "Imported \(history.count) transactions; the library now has \(ManifestEntry.good.count) songs.\n"
                + "It remembers the music folder \(box.music), as the exported library did.\n")
        // The copy rescans the folder the original did, without being told it.
        let rescan = try copy.boomic("import")
        #expect(rescan.succeeded && rescan.stderr.isEmpty, "\(rescan)")
        #expect(try copy.listing() == box.listing())
        #expect(try copy.history() == history, "seq, id, time, kind and label")
        for k in 0...history.count { #expect(try copy.listing(asOf: String(k)) == box.listing(asOf: String(k)), "state \(k)") }
        #expect(try copy.exportLines() == stdout, "exporting the copy gives the same file")
        // The undo stack is rebuilt from the log: the copy undoes what the original would.
        let copyUndo = try copy.succeed("undo", "--dry-run"), boxUndo = try box.succeed("undo", "--dry-run")
        #expect(copyUndo.stdout == boxUndo.stdout)
        // The log checks out; the covers are not in the export (art/ is a cache of the files'
        // pictures), so verify reports them until something stores them again.
        let verified = try copy.boomic("verify")
        #expect(verified.lines.first == "log: \(history.count) transactions read, checksums good; 0 checkpoints compared", "\(verified)")
        #expect(verified.lines.contains("files: \(ManifestEntry.good.count) of \(ManifestEntry.good.count) present"), "\(verified)")

        // From stdin, too.
        let piped = try Sandbox(samples: false)
        let run = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" --library \"$1\" import-json - < \"$2\"", box.executable, piped.library, file])
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
        #expect(try piped.listing() == box.listing())
    }

    @Test func importJSONRefusesABadFileOrAFullLibraryAndImportsNothing() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "year=1999", "-y")
        try box.succeed("tag", "artist:Miles", "+#jazz", "-y")
        let lines = try box.exportLines()
        try #require(lines.count == 3)
        let full = lines.map { $0 + "\n" }.joined()
        let listed = try box.listing()

        // Into a library that has a history: refused, unchanged.
        expectOneLineError(try box.boomic("import-json", try box.exportFile("log.jsonl", lines)), "already has 3 transactions")
        #expect(try box.historyCount() == 3)
        #expect(try box.listing() == listed)

        let garbled = lines[1].replacingOccurrences(of: "\"kind\":\"edit\"", with: "\"kind\":5")
        let bad: [(String, String, String)] = [
            ("cut inside the last line", String(full.dropLast(40)), "line 3"),
            ("cut inside the first line", String(full.prefix(200)), "line 1"),
            ("a line left out", [lines[0], lines[2]].map { $0 + "\n" }.joined(), "line 2"),
            ("two lines swapped", [lines[0], lines[2], lines[1]].map { $0 + "\n" }.joined(), "line 2"),
            ("a line that is not JSON", [lines[0], "{\"seq\": 2, oops", lines[2]].map { $0 + "\n" }.joined(), "line 2"),
            ("a field of the wrong type", [lines[0], garbled, lines[2]].map { $0 + "\n" }.joined(), "line 2"),
            ("the first transaction again at the end", (lines + [ExportLines.renumbered(lines[0], 4)]).map { $0 + "\n" }.joined(), "line 4"),
        ]
        for (what, text, where_) in bad {
            let target = try Sandbox(samples: false, what)
            let path = box.root + "/bad.jsonl"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let run = try target.boomic("import-json", path)
            expectOneLineError(run, where_)
            #expect(run.stderr.contains("nothing was imported"), "\(what): \(run)")
            #expect(!FileManager.default.fileExists(atPath: target.library + "/library.sqlite"), "\(what): a library was made")
            let after = try target.boomic("history", "--json")
            let kept = after.succeeded ? try decodeJSON([HistoryRecord].self, after.stdout) : []
            #expect(kept.isEmpty, "\(what): nothing imported, but \(after)")
        }

        // An empty file (or /dev/null) says so, and leaves no library behind.
        do {
            let target = try Sandbox(samples: false)
            expectOneLineError(try target.boomic("import-json", "/dev/null"), "/dev/null is empty: no exported transactions")
            #expect(!FileManager.default.fileExists(atPath: target.library + "/library.sqlite"))
        }

        // Cut at a line boundary, the file still parses: the end line tells.
        do {
            let target = try Sandbox(samples: false)
            let short = try target.boomic("import-json", try box.exportFile("short.jsonl", Array(lines.prefix(2)), end: false))
            expectOneLineError(short, "has no end line")
            let miscounted = try box.exportFile("miscounted.jsonl", Array(lines.prefix(2)), end: false)
            try Data((String(contentsOfFile: miscounted, encoding: .utf8) + #"{"end":{"transactions":3}}"# + "\n").utf8)
                .write(to: URL(fileURLWithPath: miscounted))
            expectOneLineError(try target.boomic("import-json", miscounted), "its end line says 3")
            let after = try box.exportFile("after.jsonl", Array(lines.prefix(2)))
            try Data((String(contentsOfFile: after, encoding: .utf8) + lines[2] + "\n").utf8).write(to: URL(fileURLWithPath: after))
            expectOneLineError(try target.boomic("import-json", after), "follows the end line")
            #expect(try target.boomic("history", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n]"
                    || !FileManager.default.fileExists(atPath: target.library + "/library.sqlite"))
        }

        // export -o into a folder that is not there: one line, nothing written.
        let nowhere = box.root + "/no/such/folder/log.jsonl"
        expectOneLineError(try box.boomic("export", "-o", nowhere), "cannot write")
        #expect(!FileManager.default.fileExists(atPath: box.root + "/no"))
    }
}
