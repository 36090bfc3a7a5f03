import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// `stateCost` weighs an earlier state's two ways of reading from the sizes SQLite keeps in each
/// row's header: the bytes it reports are those of the bodies, a row's body is never read, and
/// the side that has lost stops counting.
@Suite struct TransactorStateCostTests {
    @Test func costsAreTheBodiesBytesEachWay() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path, checkpointEvery: 10)
            var rng = SplitMix64(seed: 11)
            for i in 0..<25 { try store.commit(rng.op(at: Double(i))) }
            // A big transaction after the checkpoint at 20.
            try store.commit(Op(id: UUID(), timestamp: 26, changes: (0..<400).map { .set("key\($0)", $0) }))
            #expect(try store.checkpointSeqs() == [10, 20])
            let sizes = try Self.bodySizes(path)
            let checkpoint20 = try Self.checkpointSize(path, 20)

            let near = try store.stateCost(at: 24, from: 25, checkpointBytesPerLogByte: 4)
            #expect(near.checkpoint == 20)
            #expect(near.fromCheckpoint == checkpoint20 / 4 + (21...24).map { sizes[$0]! }.reduce(0, +))
            #expect(near.fromLater == sizes[25]!)
            #expect(near.isCheaperFromLater, "one small row back beats a checkpoint and four rows")

            // Across the big row: the checkpoint side wins, and the other stops counting past it.
            let across = try store.stateCost(at: 20, from: 26, checkpointBytesPerLogByte: 4)
            #expect(across.fromCheckpoint == checkpoint20 / 4)
            #expect(!across.isCheaperFromLater)
            #expect(across.fromLater == sizes[26]!, "counted newest first, stopped after the big row")
            let all = try store.stateCost(at: 20, from: 26, checkpointBytesPerLogByte: 1_000_000)
            #expect(all.fromLater == sizes[26]!, "the big row alone passes a free checkpoint")

            // Work the caller does on the checkpoint side alone tips the scale back.
            let span = (21...26).map { sizes[$0]! }.reduce(0, +)
            let compared = try store.stateCost(at: 20, from: 26, checkpointBytesPerLogByte: 4, checkpointSideExtra: span)
            #expect(compared.fromCheckpoint == checkpoint20 / 4 + span)
            #expect(compared.fromLater == span)
            #expect(compared.isCheaperFromLater)

            // Just before a checkpoint, far from the one before it and from the head: the one
            // after it, with the row between taken back, is least to read.
            #expect(try store.stateCost(at: 19, from: 26, checkpointBytesPerLogByte: 4).nextCheckpoint == 0, "weighed when asked")
            let before = try store.stateCost(at: 19, from: 26, checkpointBytesPerLogByte: 4, weighingNextCheckpoint: true)
            #expect(before.nextCheckpoint == 20)
            #expect(before.fromNextCheckpoint == checkpoint20 / 4 + sizes[20]!)
            #expect(before.cheapest == .nextCheckpoint(20))
            // Just after one: that one and a row.
            let after = try store.stateCost(at: 11, from: 26, checkpointBytesPerLogByte: 4, weighingNextCheckpoint: true)
            #expect(after.cheapest == .checkpoint, "\(after)")
            // None between the state and the later one.
            #expect(try store.stateCost(at: 22, from: 26, checkpointBytesPerLogByte: 4, weighingNextCheckpoint: true)
                .fromNextCheckpoint == .max)

            let none = try store.stateCost(at: 5, from: 26, checkpointBytesPerLogByte: 4)
            #expect(none.checkpoint == 0 && none.fromCheckpoint == (1...5).map { sizes[$0]! }.reduce(0, +))
            #expect(try store.stateCost(at: 26, from: 26, checkpointBytesPerLogByte: 4).fromLater == 0)
            #expect(throws: StoreError.self) { try store.stateCost(at: 3, from: 27, checkpointBytesPerLogByte: 4) }
        }
    }

    /// A body replaced by bytes that do not decode (its checksum left wrong): costing never reads it.
    @Test func costingReadsNoBody() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path, checkpointEvery: nil)
            var rng = SplitMix64(seed: 12)
            for i in 0..<6 { try store.commit(rng.op(at: Double(i))) }
            let sizes = try Self.bodySizes(path)
            try tamper(path, "UPDATE log SET body = 'not json at all', checksum = 'xxh64:0000000000000000' WHERE seq = 4")
            let log = try SQLiteLog(path: path, create: false)
            #expect(try log.bodyBytes(after: 2, through: 6) == sizes[3]! + "not json at all".utf8.count + sizes[5]! + sizes[6]!)
            #expect(try log.bodyBytes(after: 6, through: 6) == 0)
            #expect(throws: StoreError.self) { try store.entry(seq: 4) }
        }
    }

    static func bodySizes(_ path: String) throws -> [Int: Int] {
        let c = try SQLiteConnection(path: path)
        defer { c.close() }
        let stmt = try c.statement("SELECT seq, length(CAST(body AS BLOB)) FROM log")
        defer { stmt.reset() }
        var out: [Int: Int] = [:]
        while try stmt.step() { out[stmt.int(0)] = stmt.int(1) }
        return out
    }

    static func checkpointSize(_ path: String, _ seq: Int) throws -> Int {
        let c = try SQLiteConnection(path: path)
        defer { c.close() }
        return try c.scalarInt("SELECT length(data) FROM checkpoints WHERE seq = ?", .int(seq)) ?? -1
    }
}
