import Foundation
import Testing

/// Two `boomic` processes committing at once are serialized and no update is lost
/// (DESIGN §1 "Nothing the user owns is lost", §3: commits take SQLite's write lock).
@Suite struct ConcurrencyTests {
    static let perWriter = 200

    /// Each writer is a shell loop of separate `boomic modify` processes, so the two really run
    /// side by side (a blocking loop in a test task could be serialized by the test runner).
    @Test func twoProcessesOfTwoHundredModifiesLoseNothing() throws {
        let box = try Sandbox()
        try box.importSamples()
        let loop = """
            for i in $(seq 1 \(Self.perWriter)); do
              "$0" --library "$1" modify "$2" "comment=$3-$i" -y >/dev/null || echo "$3-$i failed with status $?" >&2
            done
            """
        // Both on the same song: every commit really changes it, and each must see the other's.
        let writers = [("A", "title:So Modal"), ("B", "title:So Modal")]
        let started = Date()
        let processes = try writers.map { name, query in
            let errors = box.root + "/writer-\(name).err"
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            return (name, errors, try ChildProcess.start("/bin/bash", ["-c", loop, box.executable, box.library, query, name], stderr: errors))
        }
        for (name, errors, process) in processes {
            process.waitUntilExit()
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0 && stderr.isEmpty, "writer \(name):\n\(stderr.prefix(3000))")
        }
        let seconds = Date().timeIntervalSince(started)

        let history = try box.history()
        #expect(history.count == 1 + 2 * Self.perWriter, "transactions lost (\(seconds) s)")
        #expect(history.map(\.seq) == Array((1...(1 + 2 * Self.perWriter)).reversed()), "sequence numbers are 1…N with no gap")
        let labels = history.dropLast().map(\.label)
        let expected = Set(["A", "B"].flatMap { w in (1...Self.perWriter).map { "modify comment=\(w)-\($0) (1 song)" } })
        #expect(Set(labels) == expected, "every modify is in the log exactly once")
        #expect(labels.count == expected.count)
        // Each writer's own commits are in its order.
        for w in ["A", "B"] {
            let mine = labels.reversed().filter { $0.hasPrefix("modify comment=\(w)-") }
            #expect(mine == (1...Self.perWriter).map { "modify comment=\(w)-\($0) (1 song)" }, "writer \(w) out of order")
        }
        // The writers did overlap; otherwise this test proved nothing.
        let order = labels.map { $0.dropFirst("modify comment=".count).prefix(1) }
        let switches = zip(order, order.dropFirst()).filter { $0 != $1 }.count
        #expect(switches >= 10, "the two writers hardly overlapped (\(switches) switches); the test proved little")

        // The last commit wins, and the library opens and folds to it.
        let song = try box.song("title:So Modal")
        #expect(song.comment.map { "modify comment=\($0) (1 song)" } == history.first?.label)
        #expect(try box.listing(asOf: "HEAD~1") != box.listing())
    }
}
