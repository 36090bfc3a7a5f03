import BoomicCore
import BoomicTestSupport
import Foundation
import Synchronization
import Testing
@testable import BoomicLibrary

/// An undo's plan (which steps, back to which state) is read from the log before the user is
/// asked; under the write lock it is read again only when the log has moved since, and a plan
/// that then differs commits nothing.
@Suite struct UndoReplanTests {
    static let client = LibrarySession.Client(command: "test", version: "0")

    final class Asked: Sendable {
        let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
    }

    static func undo(_ lib: LibrarySession, _ asked: Asked) throws -> RollbackFlow {
        let stack = try lib.undoStack()
        let plan = try #require(stack.undoPlan(count: 1))
        return try RollbackFlow(lib: lib, targetSeq: plan.targetSeq, kind: .undo, label: "undo", undoes: plan.steps.map(\.id),
                                replan: { lib in
                                    asked.count.withLock { $0 += 1 }
                                    return try lib.undoStack().undoPlan(count: 1).map { ($0.steps.map(\.id), $0.targetSeq) }
                                },
                                plannedThrough: stack.readThrough)
    }

    @Test func thePlanIsReadAgainOnlyWhenTheLogMoved() throws {
        try withTemporaryDirectory("boomic-undo-replan") { root in
            let lib = try LibrarySession.open(at: root + "/library", create: true, client: Self.client)
            defer { lib.close() }
            var rng = SplitMix64(seed: 0x2E91)
            var made = 0
            func add(_ session: LibrarySession) throws {
                let song = StatesFromLogLawTests.song(&rng, &made)
                try session.commit(kind: .import, message: nil) { _ in ([.addSong(song)], "add") }
            }
            try add(lib)
            try add(lib)

            // Another process commits between the plan and the commit: the plan is asked again,
            // now names that commit, and nothing is taken back.
            let asked = Asked()
            let stale = try Self.undo(lib, asked)
            let other = try LibrarySession.open(at: root + "/library", create: false, client: Self.client)
            try add(other)
            other.close()
            #expect(throws: LibraryError.self) { try stale.commit(message: nil) }
            #expect(asked.value == 1)
            #expect(try lib.transactor.summaries().count == 3)

            // Nobody commits in between: the plan stands without being read again.
            let fresh = try Self.undo(lib, asked)
            let committed = try #require(try fresh.commit(message: nil))
            #expect(asked.value == 1)
            let third = try lib.entry(seq: 3).transaction.id
            #expect(committed.seq == 4 && committed.transaction.undoes == [third])
        }
    }
}
