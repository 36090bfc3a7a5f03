import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// `LibrarySession.recordPlay`: one `play` transaction per record, computed on the head under the
/// write lock, so a player never overwrites what another process changed meanwhile.
@Suite struct RecordPlayTests {
    static let client = LibrarySession.Client(command: "test", version: "0")

    /// A player recording plays while two `modify` processes run at once (three sessions on one
    /// folder, each with its own SQLite connections, as three processes): every play counts and
    /// every edit survives, although the player never refreshes and its basis is always stale.
    @Test func aPlayerAndTwoModifiesAtOnceLoseNothing() throws {
        try withTemporaryDirectory("boomic-plays") { root in
            let dir = root + "/library"
            let player = try LibrarySession.open(at: dir, create: true, client: Self.client)
            let editA = try LibrarySession.open(at: dir, create: false, client: Self.client)
            let editB = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { player.close(); editA.close(); editB.close() }
            let songs = LibrarySessionTests.songs(4)
            try player.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            try editA.refresh(); try editB.refresh()
            let rounds = 25
            let problems = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                for i in 0..<rounds {
                    do {
                        switch worker {
                        case 0:
                            let song = songs[i % songs.count].id
                            let record = PlayRecord(song: song, outcome: i % 5 == 4 ? .skipped : .played, time: 1_800_000_000 + Double(i))
                            guard case .committed = try player.recordPlay(record) else { throw LibraryError("play \(i) not committed") }
                        case 1:
                            _ = try EditFlow.modify(editA, query: QueryReading.parse(["title:Song"], in: editA.basis),
                                                set: [FieldAssignment.parse("comment=a\(i)")]).commit(message: nil)
                        default:
                            _ = try EditFlow.modify(editB, query: QueryReading.parse(["title:Song"], in: editB.basis),
                                                set: [FieldAssignment.parse("year=\(1900 + i)")]).commit(message: nil)
                        }
                    } catch { problems.withLock { $0.append("worker \(worker) round \(i): \(error)") } }
                }
            }
            #expect(problems.withLock { $0 } == [])
            let check = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { check.close() }
            let after = check.basis
            #expect(after.songs.values.map(\.playcount).reduce(0, +) == 20, "every play counted")
            #expect(after.songs.values.map(\.skipcount).reduce(0, +) == 5, "every skip counted")
            for s in songs {
                let now = try #require(after[s.id])
                #expect(now.comment == "a\(rounds - 1)" && now.year == 1900 + rounds - 1, "the edits survive the plays")
                #expect(now.title == s.title)
            }
            let plays = try check.summaries(newestFirst: false, limit: nil, includePlays: true).filter { $0.kind == "play" }
            #expect(plays.count == rounds, "one transaction per record")
        }
    }

    @Test func aRecordForASongNoLongerThereIsDroppedNotAnError() throws {
        try withTemporaryDirectory("boomic-plays") { root in
            let lib = try LibrarySession.open(at: root + "/library", create: true, client: Self.client)
            defer { lib.close() }
            let songs = LibrarySessionTests.songs(2)
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            try lib.commit(kind: .remove, message: nil) { b in (EditGeneration.remove(b, songs: [songs[0].id]), "remove") }
            let r = try lib.recordPlay(PlayRecord(song: songs[0].id, outcome: .played, time: 1))
            #expect(r == .songGone(songs[0].id))
            #expect(r.message != nil)
            #expect(lib.head == 2, "nothing committed")
            // A quit at the bookmark the song already has changes nothing and commits nothing.
            let mark = PlayRecord(song: songs[1].id, outcome: .bookmarkOnly, time: 2, bookmark: Bookmark(position: 600, speed: 1.5))
            #expect(try lib.recordPlay(mark) == .committed(seq: 3))
            #expect(try lib.recordPlay(mark) == .unchanged)
            #expect(lib.basis[songs[1].id]?.bookmarkValue == Bookmark(position: 600, speed: 1.5))
            #expect(lib.basis[songs[1].id]?.playcount == 0, "a quit counts nothing")
        }
    }

    /// A play's key (queue entry and start) is its transaction's id: a record delivered again
    /// (the pending plays of a state file saved before they were committed, the tail of a song
    /// a resume replays) counts once, even from a second session; another start of the same
    /// entry, or the same start of another entry, is another play.
    @Test func aPlayWithAKeyTheLogHoldsCountsOnce() throws {
        try withTemporaryDirectory("boomic-plays") { root in
            let dir = root + "/library"
            let lib = try LibrarySession.open(at: dir, create: true, client: Self.client)
            defer { lib.close() }
            let songs = LibrarySessionTests.songs(1)
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            let key = PlayKey(entry: PlayQueue.EntryID(3), at: 1_800_000_000.123456)
            let play = PlayRecord(song: songs[0].id, outcome: .played, time: 1_800_000_200, key: key)
            #expect(try lib.recordPlay(play) == .committed(seq: 2))
            let entry = try lib.transactor.entry(seq: 2)
            #expect(entry.transaction.id == key.transactionID)
            #expect(try lib.recordPlay(play) == .alreadyRecorded(seq: 2))
            let other = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { other.close() }
            #expect(try other.recordPlay(play) == .alreadyRecorded(seq: 2), "another process holding the record too")
            #expect(lib.basis[songs[0].id]?.playcount == 1)

            let again = PlayKey(entry: PlayQueue.EntryID(3), at: 1_800_000_000.123457)
            let next = PlayKey(entry: PlayQueue.EntryID(4), at: 1_800_000_000.123456)
            #expect(Set([key, again, next].map(\.transactionID)).count == 3)
            #expect(try lib.recordPlay(PlayRecord(song: songs[0].id, outcome: .played, time: 1, key: again)) == .committed(seq: 3))
            #expect(try lib.recordPlay(PlayRecord(song: songs[0].id, outcome: .skipped, time: 2, key: next)) == .committed(seq: 4))
            try lib.refresh()
            #expect(lib.basis[songs[0].id]?.playcount == 2 && lib.basis[songs[0].id]?.skipcount == 1)
        }
    }

    /// The key's UUID is one of version 8 (RFC 9562) whose first 48 bits are the start in
    /// milliseconds, as version 7 lays them out.
    @Test func aPlayKeyIsAVersion8UUIDThatSortsByStart() {
        let key = PlayKey(entry: PlayQueue.EntryID(Int(1) << 61 + 5), started: 1_800_000_000_123_456)
        let id = key.transactionID.uuidString.lowercased()
        #expect(id.count == 36)
        let hex = id.replacingOccurrences(of: "-", with: "")
        #expect(Array(hex)[12] == "8", "version 8: \(id)")
        #expect("89ab".contains(Array(hex)[16]), "RFC 9562 variant: \(id)")
        #expect(UInt64(hex.prefix(12), radix: 16) == 1_800_000_000_123)
        let later = PlayKey(entry: PlayQueue.EntryID(1), started: 1_800_000_001_000_000)
        #expect(key.transactionID.uuidString < later.transactionID.uuidString)
    }
}
