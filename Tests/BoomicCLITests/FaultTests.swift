import BoomicTestSupport
import Foundation
import Testing

/// Nothing is lost under faults (DESIGN §1 "Nothing the user owns is lost", issue 4 item 6).
///
/// SIGKILL at 50 random moments spread over `import`, `modify`, `rollback` and `write`, each kill
/// starting from the same saved library (and music tree), so that "before" and "after" are known
/// exactly: the library must open, hold one or the other whole, pass `boomic verify`, and the
/// killed command run again must complete. For `write`, every audio file must be byte for byte
/// its old or its new self, and decode to the same samples as before.
///
/// The delays come from a seeded generator whose seed is printed; `BOOMIC_SEED=N` replays a
/// run. Serialized: the kill tests time a command, then kill it at moments within that time,
/// and would time each other otherwise. FaultTestsFullDisk and FaultTestsConcurrent
/// (FaultTests+*.swift) are not timed and run beside them.
@Suite(.serialized) struct FaultTests {
    static let importKills = 13
    static let modifyKills = 12
    static let rollbackKills = 12
    static let writeKills = 13

    /// Keys that differ between two imports of the same files.
    static let perImport: Set<String> = ["id", "added"]

    /// Records an issue unless a run that finished before its kill succeeded.
    static func expectFinishedWell(_ killed: Fault.Killed, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let run = killed.finished {
            #expect(run.succeeded && run.stderr.isEmpty, "\(context): a run that was not killed failed: \(run)", sourceLocation: sourceLocation)
        }
    }

    // MARK: import

    /// Kills an import of 1,320 songs into a library of 33: afterwards it holds the 33 songs and
    /// one transaction, or all 1,320 (as an uninterrupted import gives them) and two.
    @Test func killedImportLeavesTheLibraryBeforeOrAfter() throws {
        var rng = SplitMix64.fromEnvironment()
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        let total = try Fault.linkedTree(box, at: tree, copies: 0..<40)
        try box.succeed("import", tree + "/copy 0")
        let saved = box.root + "/saved"
        try Fault.copy(box.library, to: saved)
        let before = try Fault.state(box)
        let firstSongs = try SongRecord.decode(before.listing).count
        #expect(before.history.count == 1 && firstSongs == total / 40)

        var seconds = try Fault.timed { try box.succeed("import", tree) }
        let after = try Fault.state(box)
        let afterSongs = try after.songs(dropping: Self.perImport)
        #expect(afterSongs.count == total && after.history.count == 2)

        var hits = 0, committed = 0, leftovers = 0
        for k in 0..<Self.importKills {
            try Fault.copy(saved, to: box.library)
            let delay = Fault.delay(k, of: seconds, &rng)
            let context = "import kill \(k) after \(String(format: "%.3f", delay)) s (\(rng.replay))"
            let killed = try Fault.kill(box, ["import", tree], after: delay)
            if killed.hit { hits += 1 }
            Fault.adjust(&seconds, killed)
            Self.expectFinishedWell(killed, context)
            leftovers += Fault.hiddenTemporaries(under: box.library).count
            let now = try Fault.state(box)
            try Fault.expectVerifies(box, context)
            if now.history == before.history {
                #expect(now.listing == before.listing, "\(context): no new transaction, yet the songs changed: \(Fault.difference(listing: before.listing, now.listing))")
            } else {
                committed += 1
                #expect(Array(now.history.dropFirst()) == before.history && now.history.first?.label == after.history.first?.label,
                        "\(context): history \(now.history.map(\.label))")
                let songs = try now.songs(dropping: Self.perImport)
                #expect(songs == afterSongs, "\(context): a committed import differs from a whole one: \(Fault.difference(afterSongs, songs))")
            }
            let again = try box.succeed("import", tree)
            let expected = now.history == before.history ? "Imported: \(total - total / 40) added," : "Nothing changed:"
            #expect(again.stdout.hasPrefix(expected), "\(context): run again: \(again)")
            if k == Self.importKills - 1 {
                #expect(try box.historyCount() == 2, "\(context): run again")
                #expect(try Fault.state(box).songs(dropping: Self.perImport) == afterSongs, "\(context): run again")
            }
        }
        print("FaultTests.import: seed \(rng.seed), \(total) songs in \(String(format: "%.2f", seconds)) s; \(hits) of \(Self.importKills) kills hit a running import, \(committed) found it committed; \(leftovers) temporary files left in the library by kills")
        #expect(hits > 0, "no kill hit a running import; the test proved nothing")
    }

    // MARK: modify

    /// Kills a modify of two fields of 1,320 songs: afterwards every song is as before and there
    /// is no new transaction, or every song is as an uninterrupted modify leaves it and there is one.
    @Test func killedModifyLeavesTheLibraryBeforeOrAfter() throws {
        var rng = SplitMix64.fromEnvironment()
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        let total = try Fault.linkedTree(box, at: tree, copies: 0..<40)
        try box.succeed("import", tree)
        try box.succeed("modify", "comment=before", "-y")
        let saved = box.root + "/saved"
        try Fault.copy(box.library, to: saved)
        let before = try Fault.state(box)
        let command = ["modify", "comment=after the kill", "genre=Killed", "-y"]

        var seconds = try Fault.timed { try box.succeed(command) }
        let after = try Fault.state(box)
        #expect(after.history.count == before.history.count + 1 && after.listing != before.listing)
        #expect(try SongRecord.decode(after.listing).allSatisfy { $0.comment == "after the kill" && $0.genre == "Killed" })

        var hits = 0, committed = 0
        for k in 0..<Self.modifyKills {
            try Fault.copy(saved, to: box.library)
            let delay = Fault.delay(k, of: seconds, &rng)
            let context = "modify kill \(k) after \(String(format: "%.3f", delay)) s (\(rng.replay))"
            let killed = try Fault.kill(box, command, after: delay)
            if killed.hit { hits += 1 }
            Fault.adjust(&seconds, killed)
            Self.expectFinishedWell(killed, context)
            let now = try Fault.state(box)
            try Fault.expectVerifies(box, context)
            if now.history == before.history {
                #expect(now.listing == before.listing, "\(context): no new transaction, yet the songs changed: \(Fault.difference(listing: before.listing, now.listing))")
            } else {
                committed += 1
                #expect(Array(now.history.dropFirst()) == before.history && now.history.first?.label == after.history.first?.label,
                        "\(context): history \(now.history.map(\.label))")
                #expect(now.listing == after.listing, "\(context): a half-applied modify: \(Fault.difference(listing: after.listing, now.listing))")
            }
            let again = try box.succeed(command)
            let expected = now.history == before.history ? "Modified \(total) songs" : "No changes to make."
            #expect(again.lines.last?.hasPrefix(expected) == true, "\(context): run again: \(again)")
            if k == Self.modifyKills - 1 { #expect(try box.listing() == after.listing, "\(context): run again") }
        }
        print("FaultTests.modify: seed \(rng.seed), \(total) songs in \(String(format: "%.2f", seconds)) s; \(hits) of \(Self.modifyKills) kills hit a running modify, \(committed) found it committed")
        #expect(hits > 0, "no kill hit a running modify; the test proved nothing")
    }

    // MARK: rollback

    /// Kills `rollback 1` of a library whose later history changed four fields of 990 songs and
    /// added 495 more: afterwards it is as before the rollback, or exactly as at transaction 1.
    @Test func killedRollbackLeavesTheLibraryBeforeOrAfter() throws {
        var rng = SplitMix64.fromEnvironment()
        let box = try Sandbox(samples: false)
        let first = box.root + "/first", later = box.root + "/later"
        let old = try Fault.linkedTree(box, at: first, copies: 0..<30)
        let added = try Fault.linkedTree(box, at: later, copies: 30..<45)
        try box.succeed("import", first)
        let atOne = try box.listing()
        try box.succeed("modify", "comment=second", "genre=Second", "-y")
        try box.succeed("modify", "year=2001", "composer=Someone Else", "-y")
        try box.succeed("import", later)
        let saved = box.root + "/saved"
        try Fault.copy(box.library, to: saved)
        let before = try Fault.state(box)
        let songsBefore = try SongRecord.decode(before.listing).count
        #expect(songsBefore == old + added)
        let command = ["rollback", "1", "-y"]

        var seconds = try Fault.timed { try box.succeed(command) }
        let after = try Fault.state(box)
        #expect(after.listing == atOne, "rollback 1 does not give back the library at 1: \(Fault.difference(listing: atOne, after.listing))")

        var hits = 0, committed = 0
        for k in 0..<Self.rollbackKills {
            try Fault.copy(saved, to: box.library)
            let delay = Fault.delay(k, of: seconds, &rng)
            let context = "rollback kill \(k) after \(String(format: "%.3f", delay)) s (\(rng.replay))"
            let killed = try Fault.kill(box, command, after: delay)
            if killed.hit { hits += 1 }
            Fault.adjust(&seconds, killed)
            Self.expectFinishedWell(killed, context)
            let now = try Fault.state(box)
            try Fault.expectVerifies(box, context)
            if now.history == before.history {
                #expect(now.listing == before.listing, "\(context): no new transaction, yet the songs changed: \(Fault.difference(listing: before.listing, now.listing))")
            } else {
                committed += 1
                #expect(Array(now.history.dropFirst()) == before.history && now.history.first?.label == after.history.first?.label,
                        "\(context): history \(now.history.map(\.label))")
                #expect(now.listing == after.listing, "\(context): a half-applied rollback: \(Fault.difference(listing: after.listing, now.listing))")
            }
            let again = try box.succeed(command)
            let expected = now.history == before.history ? "Done: rollback to 1" : "The library is already as it was at 1"
            #expect(again.lines.last?.hasPrefix(expected) == true, "\(context): run again: \(again)")
            if k == Self.rollbackKills - 1 { #expect(try box.listing() == atOne, "\(context): run again") }
        }
        print("FaultTests.rollback: seed \(rng.seed), \(old + added) songs in \(String(format: "%.2f", seconds)) s; \(hits) of \(Self.rollbackKills) kills hit a running rollback, \(committed) found it committed")
        #expect(hits > 0, "no kill hit a running rollback; the test proved nothing")
    }

    // MARK: write

    /// Kills `boomic write -y` of 132 files whose songs got a new comment and genre. After each
    /// kill every file is byte for byte its old self or what an uninterrupted write made of it,
    /// every file decodes to the samples it had, the library is unchanged but for at most one
    /// whole `write` transaction, and running the write again completes and leaves no
    /// temporary file.
    @Test func killedWriteLeavesEachFileOldOrNew() throws {
        var rng = SplitMix64.fromEnvironment()
        let box = try Sandbox(samples: false)
        let tree = box.root + "/tree"
        let files = try Fault.copiedTree(box, at: tree, copies: 4)
        try box.succeed("import", tree)
        try box.succeed("modify", "comment=Written after a kill", "genre=Fault Tolerant", "-y")
        let savedTree = box.root + "/saved-tree", savedLibrary = box.root + "/saved-library"
        try Fault.copy(tree, to: savedTree)
        try Fault.copy(box.library, to: savedLibrary)
        let old = Fault.contents(files)
        let before = try Fault.state(box)
        let decoder = AudioDecoder(scratch: box.root)
        var samples: [String: String] = [:]
        for f in files {
            switch try decoder.decode(f) {
            case .success(let hash): samples[f] = hash
            case .failure(let why): Issue.record("before any write: \(why)")
            }
        }

        var seconds = try Fault.timed { try box.succeed("write", "-y") }
        let new = Fault.contents(files)
        let after = try Fault.state(box)
        #expect(files.allSatisfy { new[$0] != old[$0] }, "an uninterrupted write left files as they were")
        #expect(after.history.count == before.history.count + 1 && after.history.first?.kind == "write" && after.listing == before.listing)
        try Self.expectDecode(files, like: samples, decoder, "after an uninterrupted write")
        #expect(Fault.hiddenTemporaries(under: tree).isEmpty)

        var hits = 0, committed = 0, partial = 0, tempsLeft = 0
        for k in 0..<Self.writeKills {
            try Fault.copy(savedTree, to: tree)
            try Fault.copy(savedLibrary, to: box.library)
            let delay = Fault.delay(k, of: seconds, &rng)
            let context = "write kill \(k) after \(String(format: "%.3f", delay)) s (\(rng.replay))"
            let killed = try Fault.kill(box, ["write", "-y"], after: delay)
            if killed.hit { hits += 1 }
            Fault.adjust(&seconds, killed)
            Self.expectFinishedWell(killed, context)

            var written: [String] = [], neither: [String] = []
            for f in files {
                let bytes = FileManager.default.contents(atPath: f)
                if bytes == new[f] { written.append(f) } else if bytes != old[f] { neither.append(f) }
            }
            #expect(neither.isEmpty, "\(context): \(neither.count) files are neither their old nor their new selves: \(neither.prefix(5))")
            try Self.expectDecode(written + neither, like: samples, decoder, context)
            let temps = Fault.hiddenTemporaries(under: tree)
            tempsLeft += temps.count
            if !written.isEmpty && written.count < files.count { partial += 1 }

            let now = try Fault.state(box)
            try Fault.expectVerifies(box, context)
            #expect(now.listing == before.listing, "\(context): a write changed the songs: \(Fault.difference(listing: before.listing, now.listing))")
            let isCommitted = now.history != before.history
            if isCommitted {
                committed += 1
                #expect(Array(now.history.dropFirst()) == before.history && now.history.first?.kind == "write",
                        "\(context): history \(now.history.map(\.label))")
                #expect(written.count == files.count, "\(context): the write was recorded, yet only \(written.count) of \(files.count) files were written")
            }

            let again = try box.succeed("write", "-y")
            let left = files.count - written.count
            let expected = left == 0 ? "Every file already holds the library's tags." : "Wrote tags into \(left) file\(left == 1 ? "" : "s")"
            #expect(again.lines.last?.hasPrefix(expected) == true, "\(context): run again: \(again)")
            let unfinished = files.filter { FileManager.default.contents(atPath: $0) != new[$0] }
            #expect(unfinished.isEmpty, "\(context): run again: \(unfinished.count) files are not as an uninterrupted write makes them: \(unfinished.prefix(5))")
            let stale = Fault.hiddenTemporaries(under: tree)
            #expect(stale.isEmpty, "\(context): the kill left \(temps.count) temporary files and running the write again left \(stale.count): \(stale.prefix(5))")
            if isCommitted {
                let rescan = try box.succeed("import")
                #expect(rescan.stdout.hasPrefix("Nothing changed:"), "\(context): the recorded write does not describe the files: \(rescan)")
            }
        }
        print("FaultTests.write: seed \(rng.seed), \(files.count) files in \(String(format: "%.2f", seconds)) s; \(hits) of \(Self.writeKills) kills hit a running write, \(partial) left it part-way, \(committed) found it committed; \(tempsLeft) temporary files left by kills")
        #expect(hits > 0 && partial > 0, "no kill hit a write part-way through its files; the test proved little")
    }

    /// The files' tags as a fresh library reads them: one line per song without ids and dates.
    static func freshImport(_ box: Sandbox, _ tree: String, dropping: Set<String> = perImport,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let library = box.root + "/fresh-\(UUID().uuidString.prefix(6))"
        defer { try? FileManager.default.removeItem(atPath: library) }
        let imported = try box.bare(["--library", library, "import", tree])
        try #require(imported.succeeded && imported.stderr.isEmpty, "\(imported)", sourceLocation: sourceLocation)
        let listed = try box.bare(["--library", library, "ls", "--json"])
        try #require(listed.succeeded, "\(listed)", sourceLocation: sourceLocation)
        return try Fault.canonical(listed.stdout, dropping: dropping)
    }

    /// Writing tags is reversible (DESIGN §1): rollback, then write, gives the files their old
    /// tags. That must hold after a write was killed part-way and run again to its end: the
    /// files the killed run wrote were renamed into place, but its `write` transaction, which
    /// records their new size and mtime, was never committed.
    @Test func aWriteKilledPartWayIsStillReversible() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/tree"
        let files = try Fault.copiedTree(box, at: tree, copies: 3)
        let original = try Self.freshImport(box, tree)
        try box.succeed("import", tree)
        let atOne = try box.listing()
        try box.succeed("modify", "comment=Written, then taken back", "genre=Reversible", "-y")
        let old = Fault.contents(files)

        // Killed as soon as the first file (in path order, the order of writing) is replaced.
        var first = stat()
        #expect(stat(files[0], &first) == 0)
        let killed = try Fault.kill(box, ["write", "-y"], after: 20) {
            var now = stat()
            return stat(files[0], &now) == 0 && now.st_ino != first.st_ino
        }
        let written = files.filter { FileManager.default.contents(atPath: $0) != old[$0] }
        try #require(killed.hit && !written.isEmpty && written.count < files.count,
                     "the write was not killed part-way (\(killed), \(written.count) of \(files.count) files written)")

        try box.succeed("write", "-y")
        try box.succeed("rollback", "1", "-y")
        let back = try box.boomic("write", "-y")
        #expect(back.succeeded && back.stderr.isEmpty,
                "after a killed write, rollback then write refuses the \(written.count) files the killed run wrote: \(back.errorLines.prefix(2)) …")
        let now = try Self.freshImport(box, tree)
        #expect(now == original, "the files do not read as before the first write: \(Fault.difference(original, now))")
        let rescan = try box.succeed("import")
        #expect(rescan.stdout.hasPrefix("Nothing changed:"), "\(rescan)")
        let listing = try box.listing()
        #expect(listing == atOne, "a rescan undid the rollback: \(Fault.difference(listing: atOne, listing))")
    }

    /// Every file of `paths` decodes (`flac -t`, sox) to the samples recorded in `samples`.
    static func expectDecode(_ paths: [String], like samples: [String: String], _ decoder: AudioDecoder, _ context: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        for f in paths {
            switch try decoder.decode(f) {
            case .success(let hash):
                #expect(hash == samples[f], "\(context): \(f) decodes to other samples than before", sourceLocation: sourceLocation)
            case .failure(let why):
                Issue.record("\(context): \(why)", sourceLocation: sourceLocation)
            }
        }
    }
}
