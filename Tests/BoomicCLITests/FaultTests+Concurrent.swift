import BoomicTestSupport
import Foundation
import Testing

/// Two processes writing at once are serialized (issue 4 item 6): a `write` renames files
/// one by one outside any lock and commits what it wrote at the end, so a second `write`, or
/// a `modify`, can run in the middle of it. No file may end up half-written, the log must
/// stay whole, and no change may be lost. (Two modifies at once: ConcurrencyTests.)
@Suite struct FaultTestsConcurrent {
    /// A library over `copies` copies of the samples whose songs were given a new comment
    /// and genre, so that every file is to be written.
    static func libraryToWrite(_ box: Sandbox, copies: Int, comment: String) throws -> (tree: String, files: [String], old: [String: Data]) {
        let tree = box.root + "/tree"
        let files = try Fault.copiedTree(box, at: tree, copies: copies)
        try box.succeed("import", tree)
        try box.succeed("modify", "comment=\(comment)", "genre=Concurrent", "-y")
        return (tree, files, Fault.contents(files))
    }

    /// Starts `boomic --library LIBRARY ARGS` with its output in files; `finish` waits and
    /// reads them.
    final class Running {
        let process: Process
        let capture: String
        let arguments: [String]

        init(_ box: Sandbox, _ arguments: [String]) throws {
            capture = box.root + "/run-" + UUID().uuidString.prefix(8)
            _ = FileManager.default.createFile(atPath: capture + ".out", contents: nil)
            _ = FileManager.default.createFile(atPath: capture + ".err", contents: nil)
            self.arguments = [box.executable, "--library", box.library] + arguments
            process = try ChildProcess.start(box.executable, Array(self.arguments.dropFirst()),
                                             environment: ["XDG_DATA_HOME": box.root + "/xdg"], directory: box.root,
                                             stdout: capture + ".out", stderr: capture + ".err")
        }

        func finish() -> ProcessRun {
            process.waitUntilExit()
            return ProcessRun(arguments: arguments, status: process.terminationStatus,
                              signaled: process.terminationReason == .uncaughtSignal,
                              stdout: String(decoding: FileManager.default.contents(atPath: capture + ".out") ?? Data(), as: UTF8.self),
                              stderr: String(decoding: FileManager.default.contents(atPath: capture + ".err") ?? Data(), as: UTF8.self))
        }
    }

    /// Waits (up to 20 s) until `path` is replaced by a rename, i.e. a write got that far;
    /// false if `running` ended first.
    static func waitForReplacement(of path: String, while running: Running) -> Bool {
        var first = stat()
        guard stat(path, &first) == 0 else { return false }
        var replaced = false
        try? waitUntil("\(path) replaced", timeout: .seconds(20), every: .milliseconds(1)) {
            var now = stat()
            replaced = stat(path, &now) == 0 && now.st_ino != first.st_ino
            return replaced || !running.process.isRunning
        }
        return replaced
    }

    /// The lines a write may print when another write replaced a file under it: refusals
    /// that leave the file to the other writer, and the summary of them.
    static let waiting = "waiting for another boomic write into this library to finish…"

    static func isRaceRefusal(_ line: String) -> Bool {
        line.contains("changed while its tags were being written; left as it was")
            || line.contains("changed on disk since")
            || (line.hasPrefix("Error: ") && line.hasSuffix("not written; see the messages above"))
    }

    /// Ctrl-C during a long write: the file in hand is finished, the files written are
    /// recorded, the rest are left as they were and counted, nothing is left beside them, and
    /// the exit status is a signal's (130); the next write writes the rest.
    @Test func aWriteInterruptedStopsBetweenFilesAndRecordsThem() throws {
        let box = try Sandbox(samples: false)
        let (tree, files, old) = try Self.libraryToWrite(box, copies: 6, comment: "Interrupted")
        let history = try box.history().count
        let write = try Running(box, ["write", "-y"])
        try #require(Self.waitForReplacement(of: files[0], while: write), "the write ended before the first file: \(write.finish())")
        kill(write.process.processIdentifier, SIGINT)
        let run = write.finish()
        #expect(!run.signaled && run.status == 130, "\(run)")
        let written = files.filter { FileManager.default.contents(atPath: $0) != old[$0] }
        let left = files.count - written.count
        #expect(left > 0, "the write finished before the signal: \(run)")
        #expect(run.errorLines.last == "Error: interrupted: \(left) files were not written; run the write again to write them", "\(run)")
        #expect(Fault.hiddenTemporaries(under: tree).isEmpty, "copies left beside the files")
        #expect(try box.history().count == history + 1, "the files written were not recorded")
        let rest = try box.succeed("write", "-y")
        #expect(rest.lines.last?.hasPrefix("Wrote tags into \(left) file") == true, "\(rest)")
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
    }

    /// Two `write -y` of the same 198 files, the second started once the first has replaced
    /// its first file. Each file is written once, whole: all copies of a sample end up byte
    /// for byte the same and decode to its samples; each write records what it wrote, so
    /// nothing is left to write and a rescan finds nothing changed.
    @Test func twoWritesAtOnceWriteEachFileWhole() throws {
        let box = try Sandbox(samples: false)
        let (tree, files, old) = try Self.libraryToWrite(box, copies: 6, comment: "Two writers")
        let before = try Fault.state(box)
        let decoder = AudioDecoder(scratch: box.root)
        var samples: [String: String] = [:]
        for f in files { samples[f] = try decoder.decode(f).get() }

        let a = try Running(box, ["write", "-y"])
        let overlapped = Self.waitForReplacement(of: files[0], while: a)
        let b = try Running(box, ["write", "-y"])
        let (ra, rb) = (a.finish(), b.finish())
        try #require(overlapped, "the first write ended before the second started: \(ra)")
        for run in [ra, rb] {
            #expect(!run.signaled && (run.status == 0 || run.status == 1), "\(run)")
            #expect(run.errorLines.filter { $0 != Self.waiting }.allSatisfy(Self.isRaceRefusal), "\(run)")
        }
        // The second says that it waits, before it does.
        #expect(rb.errorLines.first == Self.waiting, "\(rb)")

        let new = Fault.contents(files)
        let unwritten = files.filter { new[$0] == old[$0] }
        #expect(unwritten.isEmpty, "\(unwritten.count) files were written by neither: \(unwritten.prefix(3))")
        let copy0 = tree + "/copy 0/"
        var differing: [String] = []
        for f in files where !f.hasPrefix(copy0) {
            let twin = copy0 + f.dropFirst(tree.count + 1).drop { $0 != "/" }.dropFirst()
            if new[f] != new[twin] { differing.append(f) }
        }
        #expect(differing.isEmpty, "copies of one sample differ after two writes at once: \(differing.prefix(3))")
        try FaultTests.expectDecode(files, like: samples, decoder, "after two writes at once")
        #expect(Fault.hiddenTemporaries(under: tree).isEmpty)

        let now = try Fault.state(box)
        try Fault.expectVerifies(box, "after two writes at once")
        #expect(now.listing == before.listing)
        let added = now.history.dropLast(before.history.count)
        #expect(Array(now.history.suffix(before.history.count)) == before.history && (1...2).contains(added.count)
                && added.allSatisfy { $0.kind == "write" }, "history: \(now.history.map(\.label))")
        // Serialized writers write each file once; two that both pass the "unchanged since I
        // read it" check and rename their copies leave the library recording one stamp while
        // the disk holds the other writer's file.
        let counts = added.compactMap { Int($0.label.split(separator: " ").dropFirst(3).first ?? "") }
        #expect(counts.reduce(0, +) <= files.count, "\(counts.reduce(0, +) - files.count) files were written by both writes: \(added.map(\.label))")
        #expect(try box.succeed("write", "-y").stdout == "Every file already holds the library's tags.\n")
        let rescan = try box.succeed("import")
        #expect(rescan.stdout.hasPrefix("Nothing changed:"), "the library does not record the files as they are: \(rescan)")
    }

    /// A `modify` committed while a `write` is part-way through its files: the modify is kept
    /// (the write's transaction only records what it wrote), the files hold what the write
    /// read, and what they hold is remembered as the files' values, so that a rescan of a
    /// file changed later does not take the modify back.
    @Test func aModifyDuringAWriteIsNotLost() throws {
        let box = try Sandbox(samples: false)
        let (tree, files, old) = try Self.libraryToWrite(box, copies: 4, comment: "Written")
        let before = try Fault.state(box)

        let write = try Running(box, ["write", "-y"])
        let overlapped = Self.waitForReplacement(of: files[0], while: write)
        let modify = try box.boomic("modify", "comment=Changed meanwhile", "-y")
        let replacedBeforeModify = files.filter { FileManager.default.contents(atPath: $0) != old[$0] }.count
        let written = write.finish()
        try #require(overlapped && replacedBeforeModify < files.count, "the write ended before the modify committed: \(written)")
        #expect(modify.succeeded && modify.stderr.isEmpty, "\(modify)")
        #expect(written.succeeded && written.stderr.isEmpty, "\(written)")
        #expect(files.allSatisfy { FileManager.default.contents(atPath: $0) != old[$0] }, "the write left files unwritten")
        #expect(Fault.hiddenTemporaries(under: tree).isEmpty)

        let now = try Fault.state(box)
        try Fault.expectVerifies(box, "after a modify during a write")
        #expect(Array(now.history.suffix(before.history.count)) == before.history && now.history.count == before.history.count + 2,
                "history: \(now.history.map(\.label))")
        let songs = try SongRecord.decode(now.listing)
        #expect(songs.allSatisfy { $0.comment == "Changed meanwhile" }, "the modify committed during the write was lost")

        // Another program touches one file (a tagger, a sync tool): the rescan reads it
        // again; it still holds the comment the write wrote, which is not a change of the file.
        let touched = files[files.count - 1]
        #expect(utimes(touched, nil) == 0)
        let rescan = try box.succeed("import")
        #expect(rescan.stdout.hasPrefix("Imported: 0 added, 1 changed"), "\(rescan)")
        let after = try SongRecord.decode(try box.listing())
        let reverted = after.filter { $0.comment != "Changed meanwhile" }.map(\.path)
        #expect(reverted.isEmpty, "a rescan took back the modify committed during the write: \(reverted)")

        let again = try box.succeed("write", "-y")
        #expect(again.lines.last?.hasPrefix("Wrote tags into \(files.count - reverted.count) files") == true, "\(again)")
        let library = Dictionary(uniqueKeysWithValues: try box.songs().map { ($0.path, $0.comment) })
        let fresh = try FaultTests.freshImport(box, tree, dropping: []).map { try SongRecord.decode("[\($0)]")[0] }
        let differ = fresh.filter { library[$0.path] != $0.comment }.map(\.path)
        #expect(differ.isEmpty, "after the last write, files do not hold the library's comment: \(differ.prefix(3))")
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
        print("FaultTests.Concurrent: the modify committed when the write had replaced about \(replacedBeforeModify) of \(files.count) files")
    }
}
