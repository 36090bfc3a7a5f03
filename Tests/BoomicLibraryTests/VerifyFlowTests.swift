import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

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
}
