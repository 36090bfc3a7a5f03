import BoomicLibrary
@testable import BoomicStore
import BoomicTestSupport
import Foundation
import Testing

/// A merge never runs inside a command's time (storage.md, "The basis: image + delta"): the
/// command whose commit makes a checkpoint due ends, its output whole, while the `boomic merge`
/// it started still holds `merge.lock` and has written nothing; another command meanwhile reads
/// and commits; then the merge lands, and the next open starts from what it wrote.
///
/// The merge is held by the test hook of debug builds (`Merge.swift`): with
/// `BOOMIC_TEST_MERGE_HOLD=PATH` it writes its pid to `PATH.held` once it holds the lock and
/// has the library open, then waits for `PATH` to exist before it writes.
@Suite struct MergeAfterCommandTests {
    /// A library of 99 transactions and no checkpoint, so that the next commit makes one due
    /// (the CLI's policy: 100 transactions since the last).
    static func oneCommitBeforeAMerge() throws -> Sandbox {
        let box = try Sandbox()
        try box.loadEdits(transactions: 99)
        try #require(try box.checkpointSeqs().isEmpty, "import-json wrote a checkpoint; the test would prove nothing")
        return box
    }

    /// Whether some process holds `merge.lock` (a `flock` this process cannot take at once).
    static func mergeLockIsHeld(_ box: Sandbox) -> Bool {
        guard let fd = takeMergeLock(box) else { return true }
        close(fd)
        return false
    }

    /// Takes `merge.lock` without waiting; nil when another process holds it. Close the
    /// descriptor to release it.
    static func takeMergeLock(_ box: Sandbox) -> Int32? {
        let fd = open(box.library + "/merge.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
        close(fd)
        return nil
    }

    /// Reads `handle` (a pipe's read end) to its end, which comes once every process holding
    /// the write end has closed it: a detached child that kept it would hold a script's
    /// `$(boomic …)` or `| cat` until it ends.
    static func readToEnd(_ handle: FileHandle, _ name: String) throws -> String {
        let fd = handle.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        try waitUntil("the end of the command's \(name) (some process still holds the pipe)") {
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 { data += buffer[0..<n]; continue }
                return n == 0
            }
        }
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aCommandEndsBeforeItsMergeLandsAndAnotherCommitsMeanwhile() throws {
        let box = try Self.oneCommitBeforeAMerge()
        let hold = box.root + "/hold"
        let held = hold + ".held"
        // Whatever fails, the merge is let go rather than left waiting for its minute.
        defer { _ = FileManager.default.createFile(atPath: hold, contents: nil) }

        // The commit that makes the checkpoint due, its output through pipes as in a script.
        let command = Process()
        command.executableURL = URL(fileURLWithPath: box.executable)
        command.arguments = ["--library", box.library, "modify", "-y", "album:Blue Sketches", "comment=due"]
        command.environment = ChildProcess.environment(["XDG_DATA_HOME": box.root + "/xdg", "BOOMIC_TEST_MERGE_HOLD": hold])
        let out = Pipe(), err = Pipe()
        command.standardInput = FileHandle.nullDevice
        command.standardOutput = out
        command.standardError = err
        try command.run()
        try waitUntil("the merge the command starts to reach its hold (is boomic a debug build?)", timeout: .seconds(60)) {
            FileManager.default.fileExists(atPath: held)
        }
        let merge = try #require(Int32(String(decoding: FileManager.default.contents(atPath: held) ?? Data(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)), "no pid in \(held)")
        try waitUntil("the command to end while its merge (pid \(merge)) is held", timeout: .seconds(30)) { !command.isRunning }
        let stdout = try Self.readToEnd(out.fileHandleForReading, "stdout")
        let stderr = try Self.readToEnd(err.fileHandleForReading, "stderr")
        #expect(command.terminationReason == .exit && command.terminationStatus == 0 && stderr.isEmpty, "exit \(command.terminationStatus)\n\(stdout)\(stderr)")
        #expect(stdout.hasSuffix("Modified 3 songs (transaction 100); 'boomic undo' takes it back.\n"), "\(stdout)")

        // The merge has not landed: it holds the lock, no checkpoint row, no image.
        #expect(kill(merge, 0) == 0, "the merge ended while held")
        #expect(Self.mergeLockIsHeld(box), "merge.lock is free while the merge is held")
        #expect(try box.checkpointSeqs().isEmpty, "a checkpoint landed while the merge was held")
        #expect(!FileManager.default.fileExists(atPath: box.library + "/library.image"), "library.image written while the merge was held")

        // Another command reads and commits meanwhile, without waiting for the merge.
        let tagged = try box.succeed("tag", "-y", "album:Blue Sketches", "+#meanwhile")
        #expect(tagged.stdout.contains("(transaction 101)"), "\(tagged)")
        let meanwhile = try box.songs("album:Blue Sketches")
        #expect(meanwhile.count == 3 && meanwhile.allSatisfy { $0.comment == "due" && $0.tags == ["#meanwhile"] }, "\(meanwhile)")
        let listed = try box.listing()
        let stillEmpty = try box.checkpointSeqs().isEmpty
        #expect(Self.mergeLockIsHeld(box) && stillEmpty, "the merge was not held while the other command ran")

        // Let go, the merge lands at the head it opened: the checkpoint row and library.image.
        _ = FileManager.default.createFile(atPath: hold, contents: nil)
        var lock: Int32?
        try waitUntil("the merge to release merge.lock", timeout: .seconds(60)) {
            lock = Self.takeMergeLock(box)
            return lock != nil
        }
        // Held to the end, so that a merge the second command started leaves at once.
        defer { lock.map { _ = close($0) } }
        #expect(try box.checkpointSeqs() == [100])
        let image = try #require(FileManager.default.contents(atPath: box.library + "/library.image"), "the merge wrote no library.image")
        let row = try box.checkpointData(100)
        #expect([UInt8](image) == row, "library.image is not the checkpoint's bytes")

        // The next open maps that image (nothing copied, nothing written) and reads the same.
        let session = try LibrarySession.open(at: box.library, create: false, client: .init(command: "test", version: "0"), mergesAfter: true)
        #expect(session.transactor.openedFrom == .mappedImage)
        #expect(session.head == 101)
        _ = session.close()
        #expect(try box.listing() == listed)
        #expect(FileManager.default.contents(atPath: box.library + "/library.image") == image, "the next open rewrote library.image")
    }
}
