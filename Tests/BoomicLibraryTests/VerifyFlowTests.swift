import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// `verify` compares one snapshot: the library as it opened it and the log up to that head,
/// whatever other processes commit meanwhile (a playing server commits a play per song).
@Suite struct VerifyFlowTests {
    @Test func commitsOfAnotherSessionAfterOpeningAreNoProblem() throws {
        try withTemporaryDirectory("boomic-verify") { folder in
            let dir = folder + "/library"
            let player = try LibrarySession.open(at: dir, create: true, client: LibrarySessionTests.client)
            defer { player.close() }
            // Marked missing: their files are not what this test is about.
            let songs = LibrarySessionTests.songs(3).map { var s = $0; s.missing = true; return s }
            try player.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add 3") }

            let verifier = try LibrarySession.open(at: dir, create: false, client: LibrarySessionTests.client)
            defer { verifier.close() }
            #expect(verifier.head == 1)
            // Between verify's opening and its reading of the log, the other session commits.
            for year in 1990..<1993 {
                try player.commit(kind: .edit, message: nil) { b in
                    (EditGeneration.modify(b, songs: [songs[0].id], set: [try FieldAssignment.parse("year=\(year)")]), "modify")
                }
            }
            #expect(player.head == 4)

            let report = try VerifyFlow.run(verifier, repair: false)
            #expect(report.problems == [], "a commit by another process is no damage")
            #expect(report.checkpointProblems == [])
            #expect(report.transactions == 1, "the log as far as the library was opened")
            #expect(report.songs == 3)
        }
    }

    /// A row of the touches index changed, deleted or added by hand: `verify` says so in one
    /// line; `--repair` rebuilds the index from the log and the next `verify` is clean.
    @Test(arguments: ["changed", "deleted", "added"])
    func aTouchesIndexThatDiffersFromTheLogIsReportedAndRepaired(_ damage: String) throws {
        try withTemporaryDirectory("boomic-verify") { folder in
            let dir = folder + "/library"
            let lib = try LibrarySession.open(at: dir, create: true, client: LibrarySessionTests.client)
            let songs = LibrarySessionTests.songs(3).map { var s = $0; s.missing = true; return s }
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add 3") }
            try lib.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: [songs[0].id], set: [try FieldAssignment.parse("year=1999")]), "modify")
            }
            #expect(try lib.transactor.touchesIndexedThrough() == 2)
            #expect(try VerifyFlow.run(lib, repair: false).checkpointProblems == [])
            lib.close()

            let c = try SQLiteConnection(path: dir + "/" + LibrarySession.logName)
            switch damage {
            case "changed": try c.execute("UPDATE touches SET info = 'delete' WHERE seq = 2")
            case "deleted": try c.execute("DELETE FROM touches WHERE key = (SELECT key FROM touches WHERE seq = 1 LIMIT 1) AND seq = 1")
            default: try c.execute("INSERT INTO touches(key, seq, info) VALUES ('no-such-song', 2, 'add')")
            }
            c.close()
            let damaged = try LibrarySession.open(at: dir, create: false, client: LibrarySessionTests.client)
            defer { damaged.close() }
            let report = try VerifyFlow.run(damaged, repair: false)
            #expect(report.problems == [])
            #expect(report.checkpointProblems.count == 1, "\(damage): \(report.checkpointProblems)")
            #expect(report.checkpointProblems.first?.hasPrefix("the index of what each transaction touched differs from the log") == true)
            _ = try VerifyFlow.run(damaged, repair: true)
            #expect(try VerifyFlow.run(damaged, repair: false).checkpointProblems == [], "\(damage)")
        }
    }
}
