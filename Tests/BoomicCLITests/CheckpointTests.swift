import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// Checkpoints (DESIGN §3) through the real command: once the log has one, opening starts from
/// it, so everything the CLI reads — listings, time travel, the indexes a rescan uses to find
/// moved files — must be as without it, and deleting it must change nothing but speed.
@Suite struct CheckpointTests {
    /// `seq` of every stored checkpoint, read with Python's sqlite3 (the test reads the file
    /// only to know that the situation under test exists).
    static func checkpoints(_ box: Sandbox) throws -> [Int] {
        let run = try ChildProcess.run(systemPython, ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(" ".join(str(r[0]) for r in db.execute("SELECT seq FROM checkpoints ORDER BY seq")))
            """, box.library + "/library.sqlite"])
        try #require(run.succeeded, "\(run)")
        return run.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    static func deleteCheckpoints(_ box: Sandbox) throws {
        let run = try ChildProcess.run(systemPython, ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("DELETE FROM checkpoints")
            db.commit()
            """, box.library + "/library.sqlite"])
        try #require(run.succeeded, "\(run)")
    }

    @Test func aLibraryReadsTheSameFromACheckpointAsFromTheLog() throws {
        let box = try Sandbox()
        try box.importSamples()
        // The log: the import and 99 edits of every song's comment and of `round`, a user field
        // (checkpoints must carry those too, issue 9). Two are made by `modify`, the rest copied
        // from the second and loaded by `import-json`, which writes the checkpoints that fall
        // due inside it (every 100 transactions or 5,000 assertions' worth of replay).
        var states = [1: try box.listing()]
        for pass in 1...2 {
            try box.succeed("modify", "comment=pass \(pass)", "round=pass \(pass)", "-y")
            states[pass + 1] = try box.listing()
        }
        let lines = try box.exportLines()
        try #require(lines.count == 3, "\(lines.count) lines")
        try box.replaceLog(lines + ExportLines.commentPasses(after: lines[2], through: 99))
        var head = 100
        let checkpoints = try Self.checkpoints(box)
        try #require(!checkpoints.isEmpty && checkpoints.allSatisfy { $0 > 3 }, "checkpoints at \(checkpoints); the test would prove nothing")
        states[head] = try box.listing()
        #expect(try box.songs().allSatisfy { $0.comment == "pass 99" }, "the copied edits are edits")
        #expect(states[head]!.contains(#""round":"pass 99""#), "the user field, read from the checkpoint")
        try box.succeed("tag", "artist:Miles", "+#after", "-y")
        head += 1
        states[head] = try box.listing()

        // The indexes rebuilt from the checkpoint: a rescan still finds the moved file by its
        // fingerprint and the changed file by its path.
        let before = try #require(try box.songs().first { $0.path == box.file(RescanTests.modal) })
        let moved = (box.file(RescanTests.modal) as NSString).deletingLastPathComponent + "/moved.flac"
        try FileManager.default.moveItem(atPath: box.file(RescanTests.modal), toPath: moved)
        try box.retag(RescanTests.opening, ["title": "Retitled"])
        let rescan = try box.succeed("import")
        #expect(rescan.stdout.hasPrefix("Imported: 0 added, 1 changed, 1 moved, 0 missing,"), "\(rescan)")
        let after = try #require(try box.songs().first { $0.path == moved })
        #expect(after.id == before.id && after.tags == ["#after"])
        head += 1
        states[head] = try box.listing()
        #expect(try box.songs("title:Retitled").count == 1)

        // Time travel to states before and after the checkpoints.
        for (k, listed) in states.sorted(by: { $0.key < $1.key }) {
            #expect(try box.listing(asOf: String(k)) == listed, "--as-of \(k), checkpoints at \(checkpoints)")
        }
        // A checkpoint is a cache: without it the states read the same (each read now replays
        // the whole log, so only two of them).
        try Self.deleteCheckpoints(box)
        #expect(try Self.checkpoints(box).isEmpty)
        #expect(try box.listing() == states[head], "the latest state without checkpoints")
        #expect(try box.listing(asOf: "2") == states[2], "--as-of 2 without checkpoints")
        #expect(try box.songs().count == ManifestEntry.good.count)
    }

    /// The samples imported, then `comment=pass K` for K up to `last`: two by `modify`, the rest
    /// copied from the second and loaded by `import-json` (too few for a checkpoint).
    static func passes(through last: Int) throws -> Sandbox {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "comment=pass 1", "-y")
        try box.succeed("modify", "comment=pass 2", "-y")
        let lines = try box.exportLines()
        try #require(lines.count == 3, "\(lines.count) lines")
        try box.replaceLog(lines + ExportLines.commentPasses(after: lines[2], through: last))
        return box
    }

    /// The CLI's own commits write no checkpoint: the command whose commit makes one due starts
    /// a detached `boomic merge` after its output, which writes it and the image beside the log.
    /// The 99 transactions before it come from `import-json` (too few for a checkpoint), so one
    /// `modify` makes the 100th.
    @Test func theCommitThatMakesACheckpointDueStartsAMergeThatWritesIt() throws {
        let box = try Self.passes(through: 98)
        try #require(try Self.checkpoints(box).isEmpty && box.historyCount() == 99, "a checkpoint before the commit under test")
        let image = box.library + "/library.image"
        #expect(!FileManager.default.fileExists(atPath: image))

        try box.succeed("modify", "comment=pass 99", "-y")
        try waitUntil("the detached merge's checkpoint at 100", timeout: .seconds(60), every: .milliseconds(50)) {
            try Self.checkpoints(box) == [100]
        }
        try waitUntil("library.image beside the log") { FileManager.default.fileExists(atPath: image) }
        #expect(try box.songs().allSatisfy { $0.comment == "pass 99" })
        VerifyExportTests.expectHealthy(try box.boomic("verify"))
    }

    /// `ls` makes each song of the image of the fields its line or template reads
    /// (`SongFormat.fieldsRead`), so what it prints must be what the same template prints of
    /// whole songs: `playlist show` prints each song read whole. The edits come last before the
    /// checkpoint, so the songs they touch are read from the image, not the delta.
    @Test func aListingOfFewFieldsFromTheImagePrintsWhatWholeSongsDo() throws {
        let box = try Self.passes(through: 95)
        try #require(try Self.checkpoints(box).isEmpty && box.historyCount() == 96, "a checkpoint before the edits")
        try box.succeed("modify", "artist:Miles", "artist_credit=Miles and Co", "mood=blue", "rating=4", "-y")
        try box.succeed("modify", "compilation:true", "albumartist=", "-y")
        try box.succeed("tag", "year:..2000", "+#old", "-y")
        try box.succeed("playlist", "new", "all", "path:/")
        try waitUntil("the detached merge's checkpoint at 100", timeout: .seconds(60), every: .milliseconds(50)) {
            try Self.checkpoints(box) == [100]
        }
        // The names that read more than their own field each alone, so that no other name's
        // field stands in for one it leaves out; then every field there is.
        let names = SongField.allCases.map(\.rawValue) + ["id", "artist", "albumartist", "tags", "length", "mood"]
        let every = names.map { "\($0)=$\($0)" }.joined(separator: "|")
        for format in [[], ["-f", "$artist"], ["-f", "$albumartist"], ["-f", "$length"], ["-f", "$title $tags $mood $id"], ["-f", every]] {
            let listed = try box.succeed(["ls", "path:/"] + format).lines
            let shown = try box.succeed(["playlist", "show", "all"] + format).lines.map {
                String($0.drop { $0 == " " }.drop { $0.isNumber }.dropFirst(2))
            }
            #expect(listed.count > 20 && listed.sorted() == shown.sorted(), "\(format): \(Set(listed).symmetricDifference(shown).sorted())")
        }
    }
}
