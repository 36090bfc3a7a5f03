import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

@Suite struct TransactorHistoryTests {
    /// A store with ops at times 10, 20, … and ids 00000000-…-0001, …-0002, ….
    func withHistory(_ count: Int, _ body: (ToyStore) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite")
            for i in 1...count {
                let id = UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", i % 3, i))!
                try store.commit(Op(id: id, timestamp: Double(10 * i), label: "op \(i)", changes: [.add("n", i)]))
            }
            try body(store)
        }
    }

    @Test func entriesInOrderWithLimits() throws {
        try withHistory(10) { (store: ToyStore) throws in
            #expect(try store.entries().map(\.seq) == Array(1...10))
            #expect(try store.entries(from: 3, through: 5).map(\.seq) == [3, 4, 5])
            #expect(try store.entries(limit: 3, newestFirst: true).map(\.seq) == [10, 9, 8])
            #expect(try store.entries(through: 4, limit: 2, newestFirst: true).map(\.seq) == [4, 3])
            #expect(try store.entry(seq: 4).transaction.label == "op 4")
            #expect(throws: StoreError.noSuchSeq(11, head: 10)) { try store.entry(seq: 11) }
            let summaries = try store.summaries(limit: 2, newestFirst: true)
            #expect(summaries.map(\.label) == ["op 10", "op 9"])
            #expect(summaries[0].time == 100)
            #expect(summaries[0].kind == "edit")
            #expect(summaries[0].id == "00000001-0000-4000-8000-00000000000a")
        }
    }

    /// A long span is decoded in chunks on every core: the entries are the ones read one by one,
    /// in order, and of two undecodable rows the first in the span is the one named.
    @Test func aLongSpanDecodesInOrderAndNamesItsFirstBadRow() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path)
            for i in 1...300 { try store.commit(Op(id: UUID(), timestamp: Double(i), label: "op \(i)", changes: [.add("n", i)])) }
            let all = try store.entries()
            #expect(all.map(\.seq) == Array(1...300))
            #expect(all.map(\.transaction.label) == (1...300).map { "op \($0)" })
            #expect(try store.entries(from: 40, through: 260, newestFirst: true).map(\.transaction.label) == (40...260).reversed().map { "op \($0)" })
            let body = #"{"future":true}"#
            for seq in [250, 150] {
                try tamper(path, "UPDATE log SET body = '\(body)', checksum = '\(Checksum.string(of: body))' WHERE seq = \(seq)")
            }
            #expect {
                _ = try store.entries()
            } throws: { error in
                if case StoreError.undecodable(seq: 150, _) = error { return true } else { return false }
            }
            #expect(try store.entries(from: 151, through: 249).count == 99)
        }
    }

    @Test func idPrefixes() throws {
        try withHistory(10) { (store: ToyStore) throws in
            #expect(try store.entry(idPrefix: "00000001-0000-4000-8000-00000000000A")?.seq == 10)
            #expect(try store.entry(idPrefix: "00000002-0000-4000-8000-000000000002")?.seq == 2)
            #expect(try store.entry(idPrefix: "0000000f") == nil)
            #expect {
                try store.entry(idPrefix: "00000002")
            } throws: { error in
                guard case StoreError.ambiguousIDPrefix("00000002", let matches) = error else { return false }
                return matches.count > 1
            }
            #expect(throws: StoreError.invalidIDPrefix("head~1")) { try store.entry(idPrefix: "HEAD~1") }
            #expect(throws: StoreError.invalidIDPrefix("")) { try store.entry(idPrefix: "") }
        }
    }

    @Test func seqAtOrBeforeATime() throws {
        try withHistory(5) { (store: ToyStore) throws in
            #expect(try store.seq(atOrBefore: 5) == 0)
            #expect(try store.seq(atOrBefore: 10) == 1)
            #expect(try store.seq(atOrBefore: 35) == 3)
            #expect(try store.seq(atOrBefore: 1e9) == 5)
        }
    }

    @Test func forEachEntryPagesThroughEverything() throws {
        try withHistory(23) { (store: ToyStore) throws in
            var seen: [Int] = []
            try store.forEachEntry(pageSize: 5) { (entry: LogEntry<Op>) throws in
                seen.append(entry.seq)
                // The body runs outside the store's locks, so it may read the store.
                #expect(try store.entry(seq: entry.seq).transaction.id == entry.transaction.id)
            }
            #expect(seen == Array(1...23))
            var fromTwenty: [Int] = []
            try store.forEachEntry(from: 20) { fromTwenty.append($0.seq) }
            #expect(fromTwenty == [20, 21, 22, 23])
        }
    }
}
