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

    /// 120 × 33 songs: the CLI's policy writes a checkpoint once 5,000 assertions wait for
    /// replay, so two modifies of every song get there. (Many small modifies would cost more:
    /// each opening replays the whole tail.)
    static let copies = 120

    @Test func aLibraryReadsTheSameFromACheckpointAsFromTheLog() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        let total = try Fault.linkedTree(box, at: tree, copies: 0..<Self.copies)
        try box.succeed("import", tree)
        // One copy's songs stand for the rest: listing 4,000 songs each time would be slow.
        let some = "path:\(tree)/copy 7/"
        var states = [1: try box.listing([some])]
        var head = 1
        while try Self.checkpoints(box).isEmpty && head < 12 {
            // `round` is a user field: checkpoints must carry those too (issue 9).
            try box.succeed("modify", "comment=pass \(head)", "round=\(head)", "-y")
            head += 1
            states[head] = try box.listing([some])
        }
        let checkpoints = try Self.checkpoints(box)
        try #require(!checkpoints.isEmpty, "no checkpoint after \(head) transactions; the test would prove nothing")
        try box.succeed("tag", some, "+#after", "-y")
        head += 1

        // The indexes rebuilt from the checkpoint: a rescan still finds the moved file by its
        // fingerprint and the changed file by its path.
        let moved = "copy 7/" + RescanTests.modal, changed = "copy 7/" + RescanTests.opening
        let before = try #require(try box.songs(some).first { $0.path == tree + "/" + moved })
        try FileManager.default.moveItem(atPath: tree + "/" + moved, toPath: tree + "/copy 7/moved.flac")
        // A copy, not the hard link: retagging the link would change all its twins.
        try FileManager.default.removeItem(atPath: tree + "/" + changed)
        try FileManager.default.copyItem(atPath: Repo.samples + "/" + RescanTests.opening, toPath: tree + "/" + changed)
        let retag = try ChildProcess.run(systemPython, ["-c", """
            import sys, mutagen
            f = mutagen.File(sys.argv[1], easy=True); f["title"] = "Retitled"; f.save()
            """, tree + "/" + changed])
        try #require(retag.succeeded, "\(retag)")
        let rescan = try box.succeed("import")
        #expect(rescan.stdout.hasPrefix("Imported: 0 added, 1 changed, 1 moved, 0 missing,"), "\(rescan)")
        let after = try #require(try box.songs(some).first { $0.path == tree + "/copy 7/moved.flac" })
        #expect(after.id == before.id && after.tags == ["#after"])
        head += 1
        states[head] = try box.listing([some])
        #expect(try box.songs("title:Retitled").count == 1)

        // Time travel to states before and after the checkpoint.
        for (k, listed) in states.sorted(by: { $0.key < $1.key }) {
            #expect(try box.listing([some], asOf: String(k)) == listed, "--as-of \(k), checkpoints at \(checkpoints)")
        }
        // A checkpoint is a cache: without it the states read the same (each read now replays
        // the whole log, so only two of them).
        try Self.deleteCheckpoints(box)
        #expect(try Self.checkpoints(box).isEmpty)
        #expect(try box.listing([some]) == states[head], "the latest state without checkpoints")
        #expect(try box.listing([some], asOf: "2") == states[2], "--as-of 2 without checkpoints")
        #expect(try box.songs().count == total)
    }
}
