import Foundation
import Testing
@testable import BoomicStore

#if canImport(Glibc)
import Glibc
#endif

/// DESIGN §1: "A crash or `kill -9` at any moment leaves the log with each transaction wholly
/// present or wholly absent; the library always opens afterwards."
@Suite struct TransactorCrashTests {
    @Test(arguments: [3, 30, 120, 300])
    func killDashNineMidCommitLeavesWholeTransactions(afterMilliseconds delay: Int) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("boomic-crash-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/library.sqlite"
        // Checkpoints every 7 commits, so the kill also lands inside checkpoint writes.
        _ = try openToy(path, checkpointEvery: 7)

        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, delay = delay as Int] in
            let store = try openToy(path, checkpointEvery: 7)
            Thread.detachNewThread {
                usleep(useconds_t(delay * 1000))
                kill(getpid(), SIGKILL)
            }
            while true {
                try store.generate { basis, head in
                    Op(id: UUID(), timestamp: Double(head), label: String(repeating: "x", count: 5000),
                       changes: [.add("n", 1), .set("head", head + 1)])
                }
            }
        }

        let store = try openToy(path, checkpointEvery: 7)
        var count = 0
        try store.forEachEntry { _ in count += 1 }
        #expect(count == store.head)
        #expect(store.basis.values["n"] ?? 0 == store.head)
        #expect(store.basis.values["head"] ?? 0 == store.head)
        #expect(try store.basis(at: store.head, usingCheckpoints: false) == store.basis)
        // And it takes new commits.
        try store.commit(Op(id: UUID(), timestamp: 0, changes: [.add("n", 1)]))
    }
}
