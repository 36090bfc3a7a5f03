import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// A log that contradicts itself is refused on open, and what can be saved of it is exactly
/// the newest intact checkpoint past the damage plus the readable rows after it, or the rows
/// before the first hole (issue 9, 2.2).
@Suite struct TransactorSalvageTests {
    /// A log of `count` random ops with checkpoints every `every`, and the basis after each seq.
    static func log(_ path: String, count: Int, every: Int, seed: UInt64) throws -> [Counters] {
        var rng = SplitMix64(seed: seed)
        let store = try openToy(path, checkpointEvery: every)
        var states = [Counters()]
        for i in 0..<count {
            try store.commit(rng.op(at: Double(i)))
            states.append(store.basis)
        }
        store.close()
        return states
    }

    @Test func aHoleIsRefusedOnOpenAndFoundByExamine() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            _ = try Self.log(path, count: 12, every: 5, seed: 1)
            try tamper(path, "DELETE FROM log WHERE seq = 7")
            #expect {
                _ = try openToy(path, checkpointEvery: 5)
            } throws: { error in
                guard case StoreError.damagedLog = error else { return false }
                return error.localizedDescription.contains("11 transactions numbered 1 to 12")
                    && error.localizedDescription.contains("export --salvage")
            }
            let ex = try ToyStore.examine(path: path)
            #expect(ex.missing == [7] && ex.damaged.isEmpty && ex.holes == [7] && !ex.isIntact)
        }
    }

    /// Holes at 3 and 12 with checkpoints at 5 and 10 (the one at 15 deleted): the newest
    /// checkpoint at or after the first hole is 10, and the rows after it go up to the next hole.
    @Test func theSalvageStartsFromTheNewestCheckpointPastAHole() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let states = try Self.log(path, count: 15, every: 5, seed: 2)
            try tamper(path, "DELETE FROM log WHERE seq = 3; UPDATE log SET body = body || ' ' WHERE seq = 12; DELETE FROM checkpoints WHERE seq = 15")
            let s = try ToyStore.salvage(path: path, codec: countersCodec)
            #expect(s.checkpoint?.seq == 10 && s.checkpoint?.basis == states[10])
            #expect(s.entries.map(\.seq) == [11])
            #expect(s.lost == [3, 12, 13, 14, 15])
            #expect(s.folded == [1, 2, 4, 5, 6, 7, 8, 9, 10])
        }
    }

    /// A damaged checkpoint past the hole is skipped for an older intact one; without any, the
    /// salvage stops before the first hole.
    @Test func withoutAnIntactCheckpointPastTheHoleTheSalvageStopsBeforeIt() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let states = try Self.log(path, count: 12, every: 5, seed: 3)
            try tamper(path, "DELETE FROM log WHERE seq = 4; UPDATE checkpoints SET data = x'00' WHERE seq = 10")
            let s = try ToyStore.salvage(path: path, codec: countersCodec)
            #expect(s.checkpoint?.seq == 5 && s.checkpoint?.basis == states[5])
            #expect(s.entries.map(\.seq) == [6, 7, 8, 9, 10, 11, 12] && s.lost == [4])

            try tamper(path, "DELETE FROM checkpoints")
            let t = try ToyStore.salvage(path: path, codec: countersCodec)
            #expect(t.checkpoint == nil && t.entries.map(\.seq) == [1, 2, 3])
            #expect(t.lost == Array(4...12))
            var basis = Counters()
            for e in t.entries { basis = applyOp(e.transaction, basis) }
            #expect(basis == states[3])
        }
    }

    /// An intact log salvages whole; a checkpoint past the last row is a hole at the end.
    @Test func anIntactLogSalvagesWholeAndACheckpointPastTheEndIsFound() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            _ = try Self.log(path, count: 8, every: 5, seed: 4)
            let whole = try ToyStore.salvage(path: path, codec: countersCodec)
            #expect(whole.checkpoint == nil && whole.entries.map(\.seq) == Array(1...8) && whole.lost.isEmpty)
            #expect(try ToyStore.examine(path: path).isIntact)
            try tamper(path, "DELETE FROM log WHERE seq > 3")
            #expect(throws: StoreError.self) { _ = try openToy(path, checkpointEvery: 5) }
            let ex = try ToyStore.examine(path: path)
            #expect(ex.missing == [4, 5] && ex.end == 5)
            #expect(describeSeqs([1, 3, 4, 5, 9]) == "1, 3–5, 9")
        }
    }

    /// A file cut short (as a full disk or a bad copy leaves it) loses the transactions on its
    /// missing pages, which SQLite reads as no rows at all: the salvage and the examination never
    /// say "nothing is lost" then, and every transaction not saved is in the lost range or past
    /// the end it names, which the file being cut short leaves open (issue 33, 11: a file cut to
    /// one page salvaged as "the whole log" of 0 transactions).
    @Test func aFileCutShortNeverSalvagesAsTheWholeLog() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let count = 400
            var rng = SplitMix64(seed: 5)
            let store = try openToy(path, checkpointEvery: 100)
            try store.appendAll((0..<count).map { rng.op(at: Double($0)) })
            store.close()
            let whole = try #require(FileManager.default.contents(atPath: path))
            let page = 4096
            let pages = whole.count / page
            try #require(pages >= 8, "the log spans \(pages) pages")
            for keep in [page, 2 * page, pages / 2 * page, (pages - 1) * page, whole.count - 100] {
                let cut = dir + "/cut-\(keep).sqlite"
                try whole.prefix(keep).write(to: URL(fileURLWithPath: cut))
                let context = "cut to \(keep) of \(whole.count) bytes"
                let ex = try ToyStore.examine(path: cut)
                #expect(!ex.isIntact && ex.losesTransactions && ex.cutShort != nil, "\(context): \(ex)")
                #expect(ex.lostDescription.contains("no longer says how many"), "\(context): \(ex.lostDescription)")
                let s = try ToyStore.salvage(path: cut, codec: countersCodec)
                #expect(s.losesTransactions && s.cutShort == ex.cutShort, "\(context)")
                // Every transaction not kept (as a row, or folded into the checkpoint) is named lost.
                let kept = Set(s.entries.map(\.seq)).union(s.checkpoint.map { Array(1...$0.seq) } ?? [])
                let unnamed = (1...count).filter { !kept.contains($0) && !s.lost.contains($0) && $0 <= s.end }
                #expect(unnamed.isEmpty, "\(context): \(describeSeqs(unnamed)) neither kept nor said lost")
            }
        }
    }

    /// After a commit returns, the database file alone holds it: the `-wal` is folded back
    /// (and after `close`, deleted), so a copy of the file, or the file with its `-wal` and
    /// `-shm` deleted, opens with every transaction.
    @Test func theDatabaseFileAloneHoldsEveryCommit() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path)
            for i in 0..<5 {
                try store.commit(Op(id: UUID(), timestamp: Double(i), changes: [.add("x", 1)]))
                let copy = dir + "/copy-\(i).sqlite"
                try FileManager.default.copyItem(atPath: path, toPath: copy)
                #expect(try openToy(copy).head == i + 1, "a copy of the file alone lacks commit \(i + 1)")
            }
            store.close()
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the last close leaves no -wal")
            #expect(try openToy(path).basis == Counters(values: ["x": 5]))
        }
    }
}
