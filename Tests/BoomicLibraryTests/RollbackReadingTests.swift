import BoomicCore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary

/// Which way a rollback reads its change. Read from a checkpoint, the target state costs the
/// checkpoint and its tail and then a comparison of every song the span touched, in both
/// states; taken back, it costs the span's rows alone. The comparison is weighed with the rest.
@Suite struct RollbackReadingTests {
    static let client = LibrarySession.Client(command: "test", version: "0")

    /// The undo of a rollback of hundreds of songs, with a checkpoint right at its target:
    /// without the comparison weighed the checkpoint side wins, and the undo would compare
    /// every song the rollback touched in both states instead of reading the one row back.
    @Test func theUndoOfABigRollbackTakesItsRowBack() throws {
        try withTemporaryDirectory("boomic-rollback-reading") { root in
            let lib = try LibrarySession.open(at: root + "/library", create: true, client: Self.client)
            defer { lib.close() }
            var rng = SplitMix64(seed: 0x0B1D)
            var made = 0
            let songs = (0..<400).map { _ in StatesFromLogLawTests.song(&rng, &made) }
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "import") }
            let assignment = try FieldAssignment.parse("genre=Ambient", newField: true)
            try lib.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: songs.map(\.id), set: [assignment]), "modify genre=Ambient")
            }
            try lib.transactor.checkpoint()
            _ = try RollbackFlow(lib: lib, targetSeq: 1, kind: .rollback, label: "rollback to 1").commit(message: nil)
            let plan = try #require(try lib.undoStack().undoPlan(count: 1))
            #expect(plan.targetSeq == 2)

            let ratio = LibrarySession.checkpointBytesPerLogByte
            #expect(!(try lib.transactor.stateCost(at: plan.targetSeq, from: lib.head, checkpointBytesPerLogByte: ratio)
                        .isCheaperFromLater), "the checkpoint side wins on bytes alone")
            let undo = try RollbackFlow(lib: lib, targetSeq: plan.targetSeq, kind: .undo, label: "undo",
                                        undoes: plan.steps.map(\.id), plays: true)
            let takesBack = undo.takesBackTheLog
            #expect(takesBack, "the undo diffs 400 songs of two states")
            let fromCheckpoint = try RollbackFlow(lib: lib, targetSeq: plan.targetSeq, kind: .undo, label: "undo",
                                                  undoes: plan.steps.map(\.id), plays: true, reading: .fromCheckpoint)
            #expect(undo.preview == fromCheckpoint.preview)
            #expect(undo.preview.count == 400)
        }
    }

    /// `undo` reads the step it takes back, then the span after its target: the span splices
    /// in the entry already decoded, in log order, wherever it lies in the span.
    @Test func aSpanReusesTheEntryLastReadInItsPlace() throws {
        try withTemporaryDirectory("boomic-rollback-reading") { root in
            let lib = try LibrarySession.open(at: root + "/library", create: true, client: Self.client)
            defer { lib.close() }
            var rng = SplitMix64(seed: 0x5EA1)
            var made = 0
            for _ in 0..<6 {
                let song = StatesFromLogLawTests.song(&rng, &made)
                try lib.commit(kind: .import, message: nil) { _ in ([.addSong(song)], "add") }
            }
            let all = try lib.transactor.entries(from: 1, through: 6).map(\.transaction)
            for kept in 1...6 {
                _ = try lib.entry(seq: kept, keeping: true)
                for after in 0..<6 {
                    for through in after...6 {
                        #expect(try lib.transactions(after: after, through: through) == Array(all[after..<through]),
                                "entry \(kept) kept, span (\(after), \(through)]")
                    }
                }
            }
        }
    }
}
