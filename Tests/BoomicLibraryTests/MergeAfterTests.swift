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
            #expect(!lib.transactor.isCheckpointDue(under: LibrarySession.checkpointPolicy),
                    "a checkpoint another process wrote is not due again")
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

    /// A command's commit over the song index's limit (256 assertions) leaves its rows to the
    /// merge: the merge, a process of its own, records them and every later one, and the index
    /// then equals the one the log gives, as `verify` checks. A resident session records all.
    @Test func aLargeCommitLeavesItsIndexRowsToTheMerge() throws {
        try withTemporaryDirectory { dir in
            let lib = try LibrarySession.open(at: dir, create: true, client: Self.client, mergesAfter: true,
                                              appliesCommitsWhenRead: true)
            defer { lib.close() }
            let songs = LibrarySessionTests.songs(300)
            try lib.commit(kind: .import, message: nil) { _ in (Array(songs.prefix(256)).map(Assertion.addSong), "add") }
            #expect(try lib.transactor.touchesIndexedThrough() == 1, "256 rows are recorded in the commit")
            #expect(!lib.transactor.leftTouchesBehind && !lib.isMergeDue)
            try lib.commit(kind: .import, message: nil) { _ in (songs.dropFirst(256).map(Assertion.addSong) + [], "add") }
            try lib.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: Array(songs.prefix(257).map(\.id)), set: [try FieldAssignment.parse("genre=Big")]), "modify")
            }
            #expect(try lib.transactor.touchesIndexedThrough() == 2, "257 rows left to the merge")
            #expect(lib.transactor.leftTouchesBehind && lib.isMergeDue)
            #expect(!lib.transactor.isCheckpointDue(under: LibrarySession.checkpointPolicy), "due for the index alone")
            // A small commit cannot record past the gap.
            try lib.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: [songs[7].id], set: [try FieldAssignment.parse("year=1969")]), "modify")
            }
            #expect(try lib.transactor.touchesIndexedThrough() == 2)
            // The merge is another process: it knows nothing of this one's flag.
            let merge = try LibrarySession.open(at: dir, create: false, client: Self.client, mergesAfter: true)
            defer { merge.close() }
            #expect(!merge.transactor.leftTouchesBehind)
            #expect(try !merge.mergeIfDue(), "no checkpoint due")
            #expect(try lib.transactor.touchesIndexedThrough() == 4)
            let expected = Set(try lib.transactor.entries(from: 1, through: 4).flatMap { lib.transactor.indexedTouches(of: $0.transaction, seq: $0.seq) })
            #expect(expected.count == 256 + 44 + 257 + 1)
            #expect(try lib.transactor.touchIndexDifference(expected: expected, through: 4) == nil)
            let key = songs[7].id.description
            #expect(try lib.transactor.touches(of: [key])[key]?.map(\.seq) == [4, 3, 1])
            // A resident session (`serve`, `play`) has no merge after each commit: it records all.
            let resident = try LibrarySession.open(at: dir, create: false, client: Self.client, mergesAfter: true)
            defer { resident.close() }
            try resident.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: songs.map(\.id), set: [try FieldAssignment.parse("genre=All")]), "modify")
            }
            #expect(try resident.transactor.touchesIndexedThrough() == 5)
            #expect(!resident.transactor.leftTouchesBehind && !resident.isMergeDue)
        }
    }
}
