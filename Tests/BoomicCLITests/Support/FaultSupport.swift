import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// What FaultTests need around a child `boomic`: killing it at a chosen moment, putting a library
/// and a music tree back as they were, comparing library states, finding hidden temporary files
/// and decoding audio.
enum Fault {
    /// A child run that was to be killed.
    struct Killed: CustomStringConvertible {
        /// The SIGKILL came while it ran.
        var hit: Bool
        /// How long it ran, to within a few milliseconds.
        var ranFor: Double
        /// When it finished on its own first: how (it must have succeeded).
        var finished: ProcessRun?

        var description: String { hit ? "killed" : "finished first: \(finished.map(String.init(describing:)) ?? "?")" }
    }

    /// Starts `boomic --library LIBRARY ARGS`, sends SIGKILL after `delay` seconds if it still
    /// runs (or as soon as `when` says so, polled every millisecond, when given) and waits for it.
    static func kill(_ box: Sandbox, _ arguments: [String], after delay: Double,
                     when: (() -> Bool)? = nil) throws -> Killed {
        let capture = box.root + "/kill-" + UUID().uuidString.prefix(8)
        _ = FileManager.default.createFile(atPath: capture + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: capture + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: capture + ".out")
            try? FileManager.default.removeItem(atPath: capture + ".err")
        }
        let all = ["--library", box.library] + arguments
        let process = try ChildProcess.start(box.executable, all, environment: ["XDG_DATA_HOME": box.root + "/xdg"],
                                             directory: box.root, stdout: capture + ".out", stderr: capture + ".err")
        let start = Date()
        let deadline = start.addingTimeInterval(delay)
        // The wait is the test: a kill at a moment drawn from the seed, or at the event `when`
        // looks for, checked often so the kill lands close to it.
        while Date() < deadline && process.isRunning {
            if let when, when() { break }
            Thread.sleep(forTimeInterval: when == nil ? min(0.005, max(0, deadline.timeIntervalSinceNow)) : 0.001)
        }
        let wasRunning = process.isRunning
        let ranFor = Date().timeIntervalSince(start)
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if wasRunning && process.terminationReason == .uncaughtSignal { return Killed(hit: true, ranFor: ranFor) }
        return Killed(hit: false, ranFor: ranFor, finished: ProcessRun(
            arguments: [box.executable] + all, status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: FileManager.default.contents(atPath: capture + ".out") ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: capture + ".err") ?? Data(), as: UTF8.self)))
    }

    /// How long the command runs, as far as the kills so far tell: a run that finished before
    /// its kill ran no longer than that (the first, timed run may have been slower: cold caches,
    /// slow fsyncs), so later kills aim within it.
    static func adjust(_ seconds: inout Double, _ killed: Killed) {
        if !killed.hit { seconds = min(seconds, max(0.05, killed.ranFor)) }
    }

    /// A delay for kill `k` of a command that runs `seconds`: even kills anywhere in the run
    /// (start-up, reading, planning), odd ones in its last part, where the commit and the
    /// renames are; a few land just after it ended, which must leave the whole change.
    static func delay(_ k: Int, of seconds: Double, _ rng: inout SplitMix64) -> Double {
        k % 2 == 0 ? rng.unit() * seconds * 1.05 : seconds * (0.55 + 0.55 * rng.unit())
    }

    static func timed(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    // MARK: Saving and restoring

    /// `cp -a`: modes and nanosecond mtimes kept, so the library still sees the files unchanged.
    /// A library being replaced may still have the detached `boomic merge` its last command
    /// started writing in it (a commit of more than 256 assertions makes one due): its lock is
    /// held while the folder goes, so a merge running ends first and one starting leaves at once.
    static func copy(_ from: String, to: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if FileManager.default.fileExists(atPath: to) {
            let lock = FileManager.default.fileExists(atPath: to + "/library.sqlite") ? try WriteLock(path: to + "/merge.lock") : nil
            try FileManager.default.removeItem(atPath: to)
            withExtendedLifetime(lock) {}
        }
        // Copied beside it and renamed into place: a detached `boomic merge` an earlier command
        // left may start at any moment, and inside a folder `cp` is still filling it made its
        // `merge.lock` where `cp` was about to ("File exists"). While `to` is absent it finds
        // no library and leaves.
        let staged = to + ".copying"
        if FileManager.default.fileExists(atPath: staged) { try FileManager.default.removeItem(atPath: staged) }
        let run = try ChildProcess.run("/bin/cp", ["-a", from, staged])
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
        try FileManager.default.moveItem(atPath: staged, toPath: to)
    }

    /// The hidden temporary files (`.*.tmp`) anywhere under `root`: write-back copies beside the
    /// music, art being stored in the library.
    static func hiddenTemporaries(under root: String) -> [String] {
        (FileManager.default.subpaths(atPath: root) ?? []).filter {
            let name = ($0 as NSString).lastPathComponent
            return name.hasPrefix(".") && name.hasSuffix(".tmp")
        }.sorted()
    }

    // MARK: Library states

    /// A library as a script sees it: `history --json` and `ls --json`.
    struct State: Equatable {
        var history: [HistoryRecord]
        var listing: String

        /// One line per song, sorted by path, with keys sorted and `dropping` left out: how an
        /// import compares with another import of the same files (ids and dates are new each time).
        func songs(dropping: Set<String> = []) throws -> [String] {
            try Fault.canonical(listing, dropping: dropping)
        }
    }

    /// Opens the library the way a script would; records an issue (and throws) unless both
    /// commands exit 0 with nothing on stderr and their output parses.
    static func state(_ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> State {
        let history = try box.history(sourceLocation: sourceLocation)
        let listing = try box.listing(sourceLocation: sourceLocation)
        _ = try SongRecord.decode(listing, sourceLocation: sourceLocation)
        return State(history: history, listing: listing)
    }

    /// `boomic verify` exits 0 and says OK.
    static func expectVerifies(_ box: Sandbox, _ context: @autoclosure () -> String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try box.boomic("verify")
        #expect(run.succeeded && run.lines.last == "OK" && run.stderr.isEmpty, "\(context()): \(run)", sourceLocation: sourceLocation)
    }

    static func canonical(_ listing: String, dropping: Set<String>) throws -> [String] {
        guard let songs = try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]] else {
            throw ChildProcess.LaunchError(description: "ls --json is not an array of objects")
        }
        return try songs.sorted { ($0["path"] as? String ?? "") < ($1["path"] as? String ?? "") }.map { song in
            let kept = song.filter { !dropping.contains($0.key) }
            return String(decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    /// Where two `ls --json` outputs differ, in a few lines (for messages).
    static func difference(listing a: String, _ b: String) -> String {
        difference((try? canonical(a, dropping: [])) ?? [], (try? canonical(b, dropping: [])) ?? [])
    }

    /// Where two song lists differ, in a few lines (for messages).
    static func difference(_ a: [String], _ b: [String]) -> String {
        let d = b.difference(from: a)
        return "\(a.count) → \(b.count) songs; first changes: "
            + d.prefix(4).map { change -> String in
                switch change {
                case .insert(_, let s, _): return "+ " + s.prefix(300)
                case .remove(_, let s, _): return "- " + s.prefix(300)
                }
            }.joined(separator: "\n")
    }

    // MARK: Music trees

    /// Audio files under `root` (hidden ones left out), sorted.
    static func audioFiles(under root: String) -> [String] {
        (FileManager.default.subpaths(atPath: root) ?? []).filter { p in
            ["flac", "mp3", "wav", "ogg"].contains((p as NSString).pathExtension.lowercased())
                && !(p as NSString).lastPathComponent.hasPrefix(".")
        }.sorted().map { root + "/" + $0 }
    }

    static func contents(_ paths: [String]) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: paths.map { ($0, FileManager.default.contents(atPath: $0) ?? Data()) })
    }

    /// `copies` real copies (not links: each file is written on its own) of the good samples,
    /// as `ROOT/copy N/…`; returns the files.
    static func copiedTree(_ box: Sandbox, at root: String, copies: Int) throws -> [String] {
        let fm = FileManager.default
        let source = box.root + "/tree-source"
        if !fm.fileExists(atPath: source) {
            try fm.copyItem(atPath: Repo.samples, toPath: source)
            try fm.removeItem(atPath: source + "/Broken")
            try removeGuessedFolders(source)
            try fm.removeItem(atPath: source + "/" + Repo.cueImageFolder)
            for extra in ["README.md", "manifest.json"] { try? fm.removeItem(atPath: source + "/" + extra) }
        }
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        for i in 0..<copies { try copy(source, to: "\(root)/copy \(i)") }
        return audioFiles(under: root)
    }
}

/// Decodes audio with the system's tools: `flac -t` for FLAC, and sox (with libsox-fmt-mp3,
/// which scripts/setup installs) to raw samples for every format, so that "decodes" also means
/// "gives the same samples as the original". Results are remembered by file content: the copies
/// of one sample, old or rewritten, are decoded once.
final class AudioDecoder {
    private var samples: [Data: String] = [:]
    private var flacOK: Set<Data> = []
    private let scratch: String

    init(scratch: String) {
        self.scratch = scratch
    }

    /// Whether sox can decode MP3 here (it cannot without libsox-fmt-mp3).
    static let soxReadsMP3: Bool = {
        guard let run = try? ChildProcess.run("/usr/bin/sox", ["-h"]) else { return false }
        return run.stdout.contains(" mp3 ")
    }()

    /// XXH64 of the decoded samples, or a line saying why the file does not decode.
    func decode(_ path: String) throws -> Result<String, DecodeFailure> {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            return .failure(DecodeFailure(path: path, reason: "cannot read the file"))
        }
        if path.hasSuffix(".flac"), !flacOK.contains(bytes) {
            // flac 1.4.2 gives a sibling X.wav the mtime of X.flac when testing X.flac unless
            // told not to, which makes the library see that WAV changed on disk.
            let t = try ChildProcess.run("/usr/bin/flac", ["-t", "-s", "--no-preserve-modtime", path])
            guard t.succeeded else { return .failure(DecodeFailure(path: path, reason: "flac -t: \(t.stderr.prefix(500))")) }
            flacOK.insert(bytes)
        }
        if let known = samples[bytes] { return .success(known) }
        if path.hasSuffix(".mp3") && !Self.soxReadsMP3 { return .success("(sox cannot read MP3 here)") }
        let raw = scratch + "/decoded-\(UUID().uuidString.prefix(8)).raw"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let run = try ChildProcess.run("/usr/bin/sox", [path, "-t", "raw", raw])
        guard run.succeeded, let pcm = FileManager.default.contents(atPath: raw), !pcm.isEmpty else {
            return .failure(DecodeFailure(path: path, reason: "sox: \(run.stderr.prefix(500))"))
        }
        let hash = pcm.withUnsafeBytes { XXH64.hex($0) }
        samples[bytes] = hash
        return .success(hash)
    }

    struct DecodeFailure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path) does not decode: \(reason)" }
    }
}

extension Fault {
    /// Leaves out of a copy of the samples the folders an import guesses for: the untidy
    /// layouts, and `Loose Files`, whose untagged songs in `copy N/Loose Files/` would take
    /// album `Loose Files` and album artist `copy N` (import.md, Tags from names). These tests
    /// count the import's transactions and steps, without the guess transaction after it.
    static func removeGuessedFolders(_ source: String) throws {
        for folder in [ManifestEntry.untidyFolder, "Loose Files"] {
            try FileManager.default.removeItem(atPath: source + "/" + folder)
        }
    }

    /// `copies` copies of the good samples, made from one private copy in the sandbox, as
    /// `ROOT/copy N/…`; returns the song count. Real copies, not hard links: one file reached
    /// by two names is one song (history.md, "A song's identity").
    static func linkedTree(_ box: Sandbox, at root: String, copies: Range<Int>) throws -> Int {
        let fm = FileManager.default
        let source = box.root + "/link-source"
        if !fm.fileExists(atPath: source) {
            try fm.copyItem(atPath: Repo.samples, toPath: source)
            try fm.removeItem(atPath: source + "/Broken")
            try removeGuessedFolders(source)
            try fm.removeItem(atPath: source + "/" + Repo.cueImageFolder)
            // Every file in an album folder (the audio and the cover files beside it), none beside them.
            for name in try fm.contentsOfDirectory(atPath: source) {
                var isDir: ObjCBool = false
                if fm.fileExists(atPath: source + "/" + name, isDirectory: &isDir), !isDir.boolValue {
                    try fm.removeItem(atPath: source + "/" + name)
                }
            }
        }
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        // The folder whole: copying it file by file (a directory made for each) took 2 s for 40 copies.
        for i in copies { try fm.copyItem(atPath: source, toPath: "\(root)/copy \(i)") }
        return audioFiles(under: source).count * copies.count
    }
}

/// A small tmpfs mounted for one test, so that writes run out of space for real. Needs root
/// (CAP_SYS_ADMIN); `SmallDisk.available` says whether this machine lets the tests mount one.
/// Call `unmount()` before the sandbox goes (a `defer` right after creating it).
final class SmallDisk {
    let path: String
    private var mounted = true
    private var fillers = 0

    /// Whether a tmpfs can be mounted here (probed once, on a throwaway folder).
    static let available: Bool = {
        let probe = NSTemporaryDirectory() + "boomic-mount-probe-\(UUID().uuidString.prefix(8))"
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard geteuid() == 0, let run = try? ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]),
              run.succeeded else { return false }
        _ = try? ChildProcess.run("/bin/umount", [probe])
        return true
    }()

    static let unavailable: Comment = "mounting a small tmpfs needs root with CAP_SYS_ADMIN, which this machine does not give the tests"

    /// Mounts a tmpfs of `kilobytes` at `path` (created if missing).
    init(at path: String, kilobytes: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let run = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0755", "tmpfs", path])
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
    }

    deinit { unmount() }

    func unmount() {
        guard mounted else { return }
        mounted = false
        if (try? ChildProcess.run("/bin/umount", [path]))?.succeeded != true {
            _ = try? ChildProcess.run("/bin/umount", ["-l", path])
        }
    }

    /// Bytes an unprivileged write could still use.
    var free: Int {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return 0 }
        return Int(s.f_bavail) * Int(s.f_frsize)
    }

    /// Fills the disk with a file of zeros until at most `leaving` bytes are free (tmpfs counts
    /// in 4 KiB pages, so what is left is `leaving` rounded down to a page).
    func fill(leaving: Int = 0) throws {
        let name = path + "/.filler-\(fillers)"
        fillers += 1
        guard FileManager.default.createFile(atPath: name, contents: nil), let handle = FileHandle(forWritingAtPath: name) else {
            throw ChildProcess.LaunchError(description: "cannot create \(name)")
        }
        defer { try? handle.close() }
        var want = max(0, free - leaving)
        let chunk = Data(count: 1 << 16)
        while want > 0 {
            let n = min(want, chunk.count)
            do { try handle.write(contentsOf: chunk.prefix(n)) } catch { break } // ENOSPC: full
            want -= n
        }
    }

    /// Makes the disk `kilobytes` big, keeping what is on it.
    func resize(kilobytes: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try ChildProcess.run("/bin/mount", ["-o", "remount,size=\(kilobytes)k", path])
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
    }

    /// Removes every filler.
    func empty() {
        for i in 0..<fillers { try? FileManager.default.removeItem(atPath: path + "/.filler-\(i)") }
    }
}

extension Fault {
    /// `boomic --library LIBRARY ARGS` under a file size limit (RLIMIT_FSIZE, what `ulimit -f`
    /// sets) of `bytes`. With `ignoringSignal` SIGXFSZ is ignored, so writes past the limit fail
    /// with EFBIG; otherwise the signal kills the process, as it would a user's.
    ///
    /// Run from Python, which sets the child's signal state explicitly: Python ignores SIGXFSZ
    /// itself, and the test runner's threads pass it on blocked (then a write past the limit
    /// fails with EFBIG instead of killing). The child's output goes through pipes, which the
    /// limit does not cover (it would cut a long stdout captured in a file); a child killed by a
    /// signal makes the wrapper die of the same signal.
    static func limited(_ box: Sandbox, bytes: Int, ignoringSignal: Bool, _ arguments: [String]) throws -> ProcessRun {
        let script = """
            import os, resource, signal, subprocess, sys
            limit, ignore = int(sys.argv[1]), sys.argv[2] == "ignore"
            def limited():
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN if ignore else signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            r = subprocess.run(sys.argv[3:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limited)
            sys.stdout.buffer.write(r.stdout)
            sys.stderr.buffer.write(r.stderr)
            sys.stdout.flush()
            sys.stderr.flush()
            if r.returncode < 0:
                signal.signal(-r.returncode, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, [-r.returncode])
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                os.kill(os.getpid(), -r.returncode)
            sys.exit(r.returncode)
            """
        var run = try ChildProcess.run(systemPython, ["-c", script, String(bytes), ignoringSignal ? "ignore" : "default",
                                                      box.executable, "--library", box.library] + arguments,
                                       environment: ["XDG_DATA_HOME": box.root + "/xdg"], directory: box.root)
        run.arguments = ["(file size limit \(bytes) bytes\(ignoringSignal ? ", SIGXFSZ ignored" : ""))", "boomic"] + arguments
        return run
    }

    /// Leaves the library as its last user leaves it when it closes cleanly: the WAL checkpointed
    /// into library.sqlite and the -wal and -shm files gone (SQLite deletes them on the last
    /// close; a `boomic` that exits without closing leaves them). Opening it again must create
    /// them, which needs room.
    static func closeCleanly(_ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            c.close()
            """
        let log = box.library + "/library.sqlite"
        let run = try ChildProcess.run(systemPython, ["-c", script, log])
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
        let fm = FileManager.default
        try #require(!fm.fileExists(atPath: log + "-wal") && !fm.fileExists(atPath: log + "-shm"),
                     "SQLite kept \(log)-wal/-shm after the last close", sourceLocation: sourceLocation)
    }
}
