import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// A command's commits never pay for a checkpoint (storage.md, "The basis: image + delta"): a
/// session opened `mergesAfter` writes none however much it commits, says when one is due, and
/// `mergeIfDue` (what the detached `boomic merge` runs) writes the image a reopen then reads.
@Suite struct MergeAfterTests {
    static let client = LibrarySession.Client(command: "test", version: "0")

    @Test func commitsLeaveTheCheckpointToTheMerge() throws {
        try withTemporaryDirectory { dir in
            let lib = try LibrarySession.open(at: dir, create: true, client: Self.client, mergesAfter: true)
            let songs = LibrarySessionTests.songs(6_000)
            // 6,000 added songs weigh past the policy's 5,000: due, but not written.
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            #expect(try lib.transactor.checkpointSeqs().isEmpty, "the commit wrote a checkpoint itself")
            #expect(lib.isMergeDue)
            // A session that checkpoints as it goes writes the one due (here, at its open).
            let inline = try LibrarySession.open(at: dir, create: false, client: Self.client)
            try inline.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: [songs[0].id], set: [try FieldAssignment.parse("year=1969")]), "modify")
            }
            let written = try inline.transactor.checkpointSeqs()
            #expect(written.count == 1, "\(written)")
            inline.close()
            try lib.refresh()
            #expect(!lib.isMergeDue, "a checkpoint another process wrote is not due again")
            try lib.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: Array(songs.prefix(5_000).map(\.id)), set: [try FieldAssignment.parse("genre=Merged")]), "modify")
            }
            #expect(try lib.transactor.checkpointSeqs() == written, "the commit wrote a checkpoint itself")
            #expect(lib.isMergeDue)
            #expect(try lib.mergeIfDue())
            #expect(try lib.transactor.checkpointSeqs() == written + [3])
            #expect(!lib.isMergeDue)
            #expect(try !lib.mergeIfDue(), "a merge with nothing due writes nothing")
            let head = lib.basis
            lib.close()
            // A reopen reads the merged image: no transaction left to replay, the same songs.
            let again = try LibrarySession.open(at: dir, create: false, client: Self.client, mergesAfter: true)
            defer { again.close() }
            #expect(again.basis.songs.image != nil && !again.basis.songs.hasDelta)
            #expect(again.basis == head)
            #expect(again.basis[songs[4_999].id]?.genre == "Merged")
        }
    }
}
