import BoomicTestSupport
import Foundation
import Synchronization
import Testing
@testable import BoomicStore

/// Commits are atomic: wholly in the log and the basis, or wholly absent from both.
@Suite struct TransactorWritingTests {
    /// Two processes' worth of writers (two instances, two threads) on one file lose no update.
    @Test func concurrentGeneratesLoseNothing() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let stores = [try openToy(path, checkpointEvery: 50), try openToy(path, checkpointEvery: 50)]
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                for n in 0..<200 {
                    do {
                        try stores[i].generate { basis, _ in
                            // set, not add: computed from the basis, so a stale basis would lose updates.
                            Op(id: UUID(), timestamp: Double(n), changes: [.set("n", (basis.values["n"] ?? 0) + 1)])
                        }
                    } catch {
                        failures.withLock { $0.append("\(i): \(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            try stores[0].refresh()
            try stores[1].refresh()
            #expect(stores[0].basis.values["n"] == 400)
            #expect(stores[1].basis.values["n"] == 400)
            #expect(stores[0].head == 400)
            #expect(try stores[0].entries().map(\.seq) == Array(1...400))
            #expect(try openToy(path, checkpointEvery: 50).basis.values["n"] == 400)
        }
    }

    @Test func generateSeesOtherProcessesCommits() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let a = try openToy(path), b = try openToy(path)
            try a.commit(Op(id: UUID(), timestamp: 0, changes: [.set("x", 5)]))
            #expect(b.head == 0)
            let generated = try b.generate { basis, head in
                #expect(head == 1)
                return Op(id: UUID(), timestamp: 1, changes: [.set("y", basis.values["x"]! * 2)])
            }
            #expect(generated?.seq == 2)
            #expect(b.basis == Counters(values: ["x": 5, "y": 10]))
            #expect(try a.refresh() == 1)
            #expect(a.basis == b.basis)
        }
    }

    @Test func nilGenerationCommitsNothing() throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite")
            #expect(try store.generate { _, _ in nil } == nil)
            #expect(store.head == 0)
            #expect(try store.logHead() == 0)
        }
    }

    struct Refused: Error, Equatable {}

    @Test func throwingGenerationLeavesNothingBehind() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path)
            try store.commit(Op(id: UUID(), timestamp: 0, changes: [.set("x", 1)]))
            #expect(throws: Refused()) { try store.generate { _, _ in throw Refused() } }
            #expect(store.head == 1)
            #expect(try store.logHead() == 1)
            // The write lock was released: the next commit goes through.
            #expect(try store.commit(Op(id: UUID(), timestamp: 1, changes: [.add("x", 1)])) == 2)
            #expect(try openToy(path).basis == Counters(values: ["x": 2]))
        }
    }

    @Test func aBodyThatCannotBeReadBackIsNotCommitted() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path)
            let poison = Op(id: UUID(), timestamp: 0, label: "poison", changes: [.set("x", 1)])
            #expect {
                try store.commit(poison)
            } throws: { error in
                guard case StoreError.unreadableAfterEncoding(let reason) = error else { return false }
                return reason.contains("poisoned")
            }
            #expect(store.head == 0)
            #expect(store.basis == Counters())
            #expect(try store.logHead() == 0)
            #expect(try openToy(path).head == 0)
        }
    }

    /// What verification prevents: without it the row is committed and the log no longer opens.
    @Test func withoutVerificationAnUnreadableBodyBreaksTheLog() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path, verifiesWrites: true)
            let poison = Op(id: UUID(), timestamp: 0, label: "poison", changes: [.set("x", 1)])
            #expect(try store.commit(poison, verifying: false) == 1)
            #expect {
                _ = try openToy(path)
            } throws: { error in
                if case StoreError.undecodable(seq: 1, _) = error { return true } else { return false }
            }
        }
    }

    @Test func anUnencodableTransactionIsNotCommitted() throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite")
            let nan = Op(id: UUID(), timestamp: .nan, changes: [])
            #expect {
                try store.commit(nan)
            } throws: { error in
                if case StoreError.unencodable = error { return true } else { return false }
            }
            #expect(try store.logHead() == 0)
        }
    }

    @Test func aDuplicateIDIsRefused() throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite")
            let op = Op(id: UUID(), timestamp: 0, changes: [.set("x", 1)])
            try store.commit(op)
            #expect(throws: StoreError.duplicateID(op.id.uuidString.lowercased())) { try store.commit(op) }
            #expect(store.head == 1)
        }
    }

    @Test func theLogReadsWell() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path)
            let id = UUID(uuidString: "3FA2C1D0-0000-4000-8000-000000000001")!
            try store.commit(Op(id: id, timestamp: 1.5, kindName: "edit", label: "set a/b", changes: [.set("a/b", 1)]))
            let c = try SQLiteConnection(path: path)
            let row = try c.statement("SELECT seq, id, time, kind, label, body, checksum FROM log")
            #expect(try row.step())
            #expect(row.int(0) == 1)
            #expect(row.text(1) == "3fa2c1d0-0000-4000-8000-000000000001")
            #expect(row.double(2) == 1.5)
            #expect(row.text(3) == "edit")
            #expect(row.text(4) == "set a/b")
            // Sorted keys and unescaped slashes (DESIGN §3).
            #expect(row.text(5) == #"{"changes":[{"set":{"_0":"a/b","_1":1}}],"id":"3FA2C1D0-0000-4000-8000-000000000001","kindName":"edit","label":"set a/b","timestamp":1.5}"#)
            #expect(row.text(6) == Checksum.string(of: row.text(5)))
            #expect(try c.scalarInt("PRAGMA user_version") == 1)
            let mode = try c.statement("PRAGMA journal_mode")
            #expect(try mode.step())
            #expect(mode.text(0) == "wal")
        }
    }
}
