import BoomicTestSupport
import Foundation
import Testing

/// `kill -9` at any moment leaves every transaction wholly present or wholly absent, and the
/// library opens afterwards (DESIGN §1 "Nothing the user owns is lost"). Each test kills a
/// child `boomic` at random moments of a long import or a big modify and checks what is left.
@Suite struct CrashSafetyTests {
    /// Copies of the good sample files: 40 × 33 songs. A debug `boomic` imports a few thousand
    /// files/s here, and opening a library with a long tail after its checkpoint costs up to a
    /// second, so this keeps an import (about a second) long enough to be hit at random moments
    /// (walk, tag reading, commit) and short enough to kill ten times within the CI budget.
    static let copies = 40
    static let kills = 10

    /// The library opens (`history --json` and `ls --json` exit 0 with nothing on stderr, and
    /// their output parses); what is in it.
    static func reopen(_ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> (history: [HistoryRecord], songs: [SongRecord]) {
        (try box.history(sourceLocation: sourceLocation), try box.songs(sourceLocation: sourceLocation))
    }

    /// Puts back the library saved in `saved` (each kill starts from the same state, so that
    /// opening stays cheap and "before" is known exactly).
    static func restore(_ box: Sandbox, from saved: String) throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: box.library) { try fm.removeItem(atPath: box.library) }
        try fm.copyItem(atPath: saved, toPath: box.library)
    }

    /// Kills an import of 1,320 songs into a library that holds 33, at random moments. After
    /// each kill the library holds either 33 songs and one transaction, or all of them and two;
    /// then the same import, run again, completes.
    @Test func killedImportLeavesWholeTransactions() throws {
        var rng = SplitMix64.fromEnvironment()
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        let total = try Fault.linkedTree(box, at: tree, copies: 0..<Self.copies)
        let first = total / Self.copies // one copy of the samples
        try box.succeed("import", tree + "/copy 0")
        let saved = box.root + "/saved"
        try FileManager.default.copyItem(atPath: box.library, toPath: saved)
        let before = try Self.reopen(box)
        #expect(before.history.count == 1 && before.songs.count == first)

        // How long the import takes here and now: the kills spread over that.
        let seconds = try Fault.timed { try box.succeed("import", tree) }
        #expect(try box.songs().count == total)

        var killed = 0, committed = 0
        for k in 0..<Self.kills {
            try Self.restore(box, from: saved)
            let delay = Fault.delay(k, of: seconds, &rng)
            if try Fault.kill(box, ["import", tree], after: delay).hit { killed += 1 }
            let (h, s) = try Self.reopen(box)
            if h == before.history {
                #expect(s == before.songs, "kill \(k) after \(delay) s: no new transaction, yet the songs changed (\(s.count))")
            } else {
                committed += 1
                #expect(h.count == 2 && Array(h.dropFirst()) == before.history, "kill \(k): history \(h.map(\.label))")
                #expect(h.first?.label == "import: \(total - first) new")
                #expect(s.count == total && s.allSatisfy { $0.title != nil || $0.path.contains("no tags") },
                        "kill \(k) after \(delay) s: a committed import must hold all \(total) songs, found \(s.count)")
            }
            let again = try box.succeed("import", tree)
            #expect(again.stdout.hasPrefix(h == before.history ? "Imported: \(total - first) added," : "Nothing changed:"), "after kill \(k): \(again)")
            #expect(try box.songs().count == total)
        }
        print("CrashSafetyTests.import: seed \(rng.seed), import \(seconds) s, \(killed) of \(Self.kills) kills hit a running import, \(committed) after its commit")
        #expect(killed > 0, "no kill hit a running import; the test proved nothing")
    }

    /// Kills a modify of all 1,320 songs at random moments: every song has the old comment
    /// and there is no new transaction, or every song has the new one and there is one.
    @Test func killedModifyLeavesWholeTransactions() throws {
        var rng = SplitMix64.fromEnvironment()
        let box = try Sandbox(samples: false)
        let tree = box.root + "/big"
        let total = try Fault.linkedTree(box, at: tree, copies: 0..<Self.copies)
        try box.succeed("import", tree)
        try box.succeed("modify", "comment=before", "-y")
        let saved = box.root + "/saved"
        try FileManager.default.copyItem(atPath: box.library, toPath: saved)
        let before = try Self.reopen(box)
        #expect(before.songs.count == total && before.songs.allSatisfy { $0.comment == "before" })

        let seconds = try Fault.timed { try box.succeed("modify", "comment=calibration", "-y") }

        var killed = 0, committed = 0
        for k in 0..<Self.kills {
            try Self.restore(box, from: saved)
            let delay = Fault.delay(k, of: seconds, &rng)
            let value = "kill \(k)"
            if try Fault.kill(box, ["modify", "comment=\(value)", "-y"], after: delay).hit { killed += 1 }
            let (h, s) = try Self.reopen(box)
            let comments = Set(s.map { $0.comment ?? "nil" })
            #expect(s.count == total, "kill \(k): songs went missing")
            if h == before.history {
                #expect(s == before.songs, "kill \(k) after \(delay) s: no new transaction, yet comments \(comments)")
            } else {
                committed += 1
                #expect(h.count == before.history.count + 1, "kill \(k): \(h.count - before.history.count) new transactions")
                #expect(comments == [value], "kill \(k) after \(delay) s: a half-applied modify: \(comments)")
            }
            let again = try box.succeed("modify", "comment=\(value) again", "-y")
            #expect(again.lines.last?.hasPrefix("Modified \(total) songs") == true, "after kill \(k): \(again)")
            #expect(Set(try box.songs().map(\.comment)) == ["\(value) again"])
        }
        print("CrashSafetyTests.modify: seed \(rng.seed), modify \(seconds) s, \(killed) of \(Self.kills) kills hit a running modify, \(committed) after its commit")
        #expect(killed > 0, "no kill hit a running modify; the test proved nothing")
    }
}
