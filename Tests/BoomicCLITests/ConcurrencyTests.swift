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

    /// `undo` decides what to take back, prints the preview, then commits. A change another
    /// process commits in between must not be taken back with it (a lost update), and the next
    /// `undo` must not bring back what this one took back.
    ///
    /// Made deterministic with a pipe nobody reads: the preview of a change to long comments is
    /// far larger than a pipe's 64 KiB, so `undo` blocks while printing it, after planning and
    /// before committing. The other change is committed then.
    @Test func undoDoesNotTakeBackAChangeCommittedWhileItPrinted() throws {
        let box = try Sandbox()
        try box.importSamples()
        let long = String(repeating: "x", count: 20_000)
        try box.succeed("modify", "comment=\(long)", "-y")                           // 2: the change to undo
        let afterTwo = try box.songs()

        let undoOut = Pipe()
        let undo = Process()
        undo.executableURL = URL(fileURLWithPath: box.executable)
        undo.arguments = ["--library", box.library, "undo", "-y"]
        undo.environment = ChildProcess.environment(["XDG_DATA_HOME": box.root + "/xdg"])
        undo.standardInput = FileHandle.nullDevice
        undo.standardOutput = undoOut
        undo.standardError = FileHandle.nullDevice
        try undo.run()
        let first = undoOut.fileHandleForReading.availableData                      // undo has planned
        #expect(!first.isEmpty)

        try box.succeed("modify", "title:So Modal", "rating=5", "-y")               // 3: meanwhile
        let rest = undoOut.fileHandleForReading.readDataToEndOfFile()
        undo.waitUntilExit()
        let output = String(decoding: first + rest, as: UTF8.self).suffix(300)

        let history = try box.history()
        let label = history.first?.label ?? ""
        let songs = try box.songs()
        let modal = try #require(songs.first { $0.title == "So Modal" })
        if history.first?.seq == 3 {
            // Refused: the plan it showed is no longer the latest one. That is an error exit.
            #expect(undo.terminationStatus != 0, "the undo committed nothing yet claimed success: \(output)")
        } else if label.hasPrefix("undo 2 ") {
            #expect(modal.rating == 5, "'\(label.prefix(40))' also took back transaction 3 (rating=5), committed while it printed")
            #expect(songs.allSatisfy { $0.comment == nil }, "undo 2 must take back the comments")
        } else if label.hasPrefix("undo 3 ") {
            #expect(songs == afterTwo, "undo 3 must give back the state after 2")
        } else {
            Issue.record("the undo neither committed nor refused cleanly: \(label.prefix(60)) \(output)")
        }

        // The stack agrees with the state: the next undo takes back another change, never
        // re-applies the one just taken back.
        if label.hasPrefix("undo ") {
            try box.succeed("undo", "-y")
            #expect(try box.songs().allSatisfy { $0.comment != long }, "the second undo brought back the comments the first took back")
        }
    }
}
