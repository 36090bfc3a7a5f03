import Foundation
import Testing

/// A damaged `library.sqlite` never reads as a shorter or empty library: every command refuses
/// it in one line that says what to do, `verify` names what is lost, and `export --salvage`
/// followed by `import-json` gives a library that opens with the songs of the last state that
/// could be saved. Issue 9, 2.2: a truncated file listed as "No history yet" (exit 0), `verify`
/// said OK with a row deleted or an index damaged, and its advice (`export`) failed the same way.
@Suite struct DamagedLibraryTests {
    /// A library with an import and six modifies, closed cleanly, and `ls --json --as-of N` for
    /// every N (index N), taken before any damage: each test damages its own copy of it.
    static func library(_ label: String = #function) throws -> (box: Sandbox, listings: [String]) {
        let (template, listings) = try Self.template.get()
        return (try Sandbox(copying: template, label), listings)
    }

    /// The library `library()` copies, built once per test process.
    static let template = Result { () throws -> (box: Sandbox, listings: [String]) in
        let box = try Sandbox.forProcess("damagedLibrary")
        try box.importSamples()
        let edits = 6
        for i in 0..<edits {
            try box.succeed("modify", "-y", "album:\(DurabilityTests.albums[i % DurabilityTests.albums.count])", "comment=edit \(i)")
        }
        var listings = [try box.listing(asOf: "0")]
        for seq in 1...(1 + edits) { listings.append(try box.listing(asOf: String(seq))) }
        try Fault.closeCleanly(box)
        return (box, listings)
    }

    /// Reading commands refuse the library with one line that points to verify and the salvage.
    static func expectRefused(_ box: Sandbox, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for command in [["history"], ["ls"], ["export"]] {
            let run = try box.boomic(command)
            expectOneLineError(run, "damaged", sourceLocation: sourceLocation)
            #expect(run.stderr.contains("export --salvage"), "\(context): \(run)", sourceLocation: sourceLocation)
        }
    }

    /// `verify` exits 1 naming `lost` (when given) and the salvage.
    static func expectVerifyFinds(_ box: Sandbox, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try box.boomic("verify")
        #expect(!run.signaled && run.status == 1, "\(run)", sourceLocation: sourceLocation)
        #expect(run.errorLines.last?.hasPrefix("Error: verify found the log damaged") == true
                && run.stderr.contains("export --salvage") && run.stderr.contains(text), "\(run)", sourceLocation: sourceLocation)
    }

    /// Salvages into a new library and checks it opens with the songs of the state the salvage
    /// says it reached ("up to N" on stderr), and verifies; returns N and the stderr line.
    @discardableResult
    static func salvage(_ box: Sandbox, _ listings: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> (upTo: Int, note: String) {
        let file = box.root + "/salvage.jsonl"
        let run = try box.boomic("export", "--salvage", "-o", file)
        try #require(run.succeeded && run.errorLines.count == 2 && run.errorLines[0].hasPrefix("salvage: "), "\(run)", sourceLocation: sourceLocation)
        let note = run.errorLines[0]
        let upTo = note.firstMatch(of: /up to ([0-9]+)/).flatMap { Int($0.1) }
            ?? (note.contains("nothing is lost") ? listings.count - 1 : note.contains("nothing could be saved") ? 0 : -1)
        try #require(upTo >= 0 && upTo < listings.count, "\(run)", sourceLocation: sourceLocation)
        let rebuilt = try Sandbox(samples: false)
        try rebuilt.succeed(["import-json", file])
        // The covers are not in the log: storage.md says to move art/ along.
        try FileManager.default.copyItem(atPath: box.library + "/art", toPath: rebuilt.library + "/art")
        let listing = try rebuilt.listing(sourceLocation: sourceLocation)
        #expect(try Fault.canonical(listing, dropping: []) == Fault.canonical(listings[upTo], dropping: []),
                "the salvaged library is not the state after \(upTo): \(Fault.difference(listing: listings[upTo], listing))",
                sourceLocation: sourceLocation)
        let verified = try rebuilt.boomic("verify")
        #expect(verified.succeeded, "\(verified)", sourceLocation: sourceLocation)
        return (upTo, note)
    }

    @Test func aDeletedRowInTheMiddleIsFoundAndTheSalvageStopsBeforeIt() throws {
        let (box, listings) = try Self.library()
        _ = try box.sqlite("db.execute('DELETE FROM log WHERE seq = 3'); db.commit()")
        try Self.expectRefused(box, "a deleted row")
        try Self.expectVerifyFinds(box, "lost: 3")
        let (upTo, note) = try Self.salvage(box, listings)
        #expect(upTo == 2 && note.hasSuffix("lost: 3–7"), "\(note)")
    }

    @Test func aDamagedBodyIsFoundAndTheSalvageStopsBeforeIt() throws {
        let (box, listings) = try Self.library()
        _ = try box.sqlite("db.execute(\"UPDATE log SET body = replace(body, 'edit 3', 'edit X') WHERE seq = 5\"); db.commit()")
        try Self.expectRefused(box, "a damaged body")
        try Self.expectVerifyFinds(box, "lost: 5")
        let (upTo, note) = try Self.salvage(box, listings)
        #expect(upTo == 4 && note.hasSuffix("lost: 5–7"), "\(note)")
    }

    /// The rows at the end deleted, but a checkpoint after them left: the log is shorter than
    /// its own checkpoint, which opening notices.
    @Test func aLogShorterThanItsCheckpointIsFound() throws {
        let (box, listings) = try Self.library()
        _ = try box.sqlite("""
            db.execute("INSERT INTO checkpoints(seq, format, weight, checksum, data) VALUES (7, 0, 1, 'x', x'00')")
            db.execute('DELETE FROM log WHERE seq > 5'); db.commit()
            """)
        try Self.expectRefused(box, "rows deleted at the end")
        try Self.expectVerifyFinds(box, "lost: 6–7")
        let (upTo, _) = try Self.salvage(box, listings)
        #expect(upTo == 5)
    }

    /// An index page with an id changed behind SQLite's back: reads still work (they use the
    /// table), `verify` finds it, the salvage keeps everything, and `verify --repair` rebuilds it.
    @Test func aDamagedIndexIsFoundByVerify() throws {
        let (box, listings) = try Self.library()
        let found = try box.sqlite("""
            page = db.execute('PRAGMA page_size').fetchone()[0]
            root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_log_1'").fetchone()[0]
            ident = db.execute('SELECT id FROM log WHERE seq = 4').fetchone()[0].encode()
            db.close()
            with open(sys.argv[1], 'r+b') as f:
                f.seek((root - 1) * page)
                data = bytearray(f.read(page))
                at = data.find(ident)
                if at >= 0:
                    data[at] = ord('g')   # not a hex digit: out of order in the index
                    f.seek((root - 1) * page)
                    f.write(data)
            print(at)
            """)
        try #require((Int(found.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1) >= 0, "the id is not on the index's root page")
        try Self.expectVerifyFinds(box, "verify --repair")
        let (upTo, note) = try Self.salvage(box, listings)
        #expect(upTo == 7 && note.contains("nothing is lost"), "\(note)")
        // An index is derived data: verify --repair rebuilds it, and nothing else changes.
        let repaired = try box.boomic("verify", "--repair")
        #expect(repaired.succeeded && repaired.stderr.contains("repaired: rebuilt the log's indexes") && repaired.lines.last == "OK", "\(repaired)")
        let healthy = try box.boomic("verify")
        #expect(healthy.succeeded && healthy.stderr.isEmpty, "\(healthy)")
        #expect(try box.listing() == listings[7])
    }

    /// The file cut to a fraction of its size: never an empty or shorter library.
    @Test(arguments: [0, 4096, 3])
    func aTruncatedFileIsRefused(keeping quarters: Int) throws {
        let (box, listings) = try Self.library()
        let log = box.library + "/library.sqlite"
        let size = (try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        let keep = quarters == 3 ? size * 3 / 4 / 4096 * 4096 : quarters
        try #require(truncate(log, off_t(keep)) == 0)
        try Self.expectRefused(box, "truncated to \(keep) of \(size) bytes")
        let verify = try box.boomic("verify")
        #expect(!verify.signaled && verify.status == 1 && verify.stderr.contains("damaged"), "\(verify)")
        if keep > 4096 { try Self.salvage(box, listings) }
        if keep >= 4096 { try Self.expectCutShortSaid(box, context: "truncated to \(keep) of \(size) bytes") }
    }

    /// The file cut to one page, half its pages, all but its last page, or a few bytes short:
    /// neither the salvage nor `verify` (nor `--repair`) says that nothing is lost (issue 33, 11:
    /// a file cut to one page salvaged as "the whole log" of 0 transactions).
    @Test(arguments: ["page", "half", "allButLast", "bytes"])
    func aFileCutShortIsNeverTheWholeLog(_ cut: String) throws {
        let (box, _) = try Self.library()
        let log = box.library + "/library.sqlite"
        let size = (try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        let pages = size / 4096
        try #require(pages >= 4, "the library spans \(pages) pages")
        let keep = ["page": 4096, "half": pages / 2 * 4096, "allButLast": (pages - 1) * 4096][cut] ?? size - 100
        try #require(truncate(log, off_t(keep)) == 0)
        try Self.expectCutShortSaid(box, context: "truncated to \(keep) of \(size) bytes")
    }

    /// `export --salvage` and `verify` say the file is cut short and how far the loss may reach.
    static func expectCutShortSaid(_ box: Sandbox, context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let salvage = try box.boomic("export", "--salvage", "-o", box.root + "/salvage.jsonl")
        #expect(!salvage.stderr.contains("nothing is lost") && salvage.stderr.contains("no longer says how many"),
                "\(context): \(salvage)", sourceLocation: sourceLocation)
        for arguments in [["verify"], ["verify", "--repair"]] {
            let verify = try box.boomic(arguments)
            #expect(!verify.signaled && verify.status == 1 && !verify.stderr.contains("no transaction lost")
                    && verify.stderr.contains("lost: ") && verify.stderr.contains("cut short"),
                    "\(context): \(verify)", sourceLocation: sourceLocation)
        }
    }
}
