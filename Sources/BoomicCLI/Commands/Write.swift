import ArgumentParser
import BoomicCore
import BoomicMedia
import Dispatch
import Foundation
import Synchronization

struct Write: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        abstract: "Write the library's tags and covers into the files of matching songs.",
        discussion: """
            Only files whose tags read differently from the library are written; each change is \
            shown (field: file → library) and asked for on a terminal (-y to skip). A file is never \
            written in place: the tags go into a copy beside it, whose audio bytes are checked \
            against the original's, which is flushed to disk and renamed over the original, keeping \
            its mode and owner. After 'boomic undo' or 'boomic rollback', 'boomic write' puts the \
            earlier tags back. A file changed on disk since the library last saw it is skipped \
            unless --force; read-only files and folders are skipped.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Flag(help: "Also write files that changed on disk since they were last scanned, losing those changes.")
    var force = false
    @Argument(help: "The query (default: every song).")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let parsed = try ChangeQuery.parse(query, in: lib.basis)
        var writing = try TagWriting(lib: lib, force: force, recording: !confirm.dryRun)
        let planned = try writing.plan(lib.basis.songs(matching: parsed))
        for p in planned {
            Out.line(Terminal.yellow("~ ") + Terminal.printable(p.plan.song.path))
            for d in p.plan.differences { Out.line("    " + TagWriting.shown(d)) }
        }
        let count = "\(planned.count) file\(planned.count == 1 ? "" : "s")"
        if planned.isEmpty {
            Out.line(writing.failures == 0 ? "Every file already holds the library's tags." : "Nothing to write.")
            if !confirm.dryRun, !writing.agreeing.isEmpty { _ = try writing.record([], message: change.message) }
        } else if confirm.dryRun {
            Out.line("Dry run: \(count) would be written.")
        } else if !Terminal.confirm("Write tags into \(count)?", yes: confirm.yes) {
            Out.line("Nothing written.")
        } else {
            let outcomes = writing.write(planned)
            let c = try writing.record(outcomes, message: change.message)
            Out.line("Wrote tags into \(outcomes.count) file\(outcomes.count == 1 ? "" : "s")"
                + (c.map { " (transaction \($0))." } ?? "."))
        }
        try writing.finish()
    }
}

/// Writing songs' tags into their files and recording the files' new stamps: the body of
/// `boomic write` and of `boomic modify --write`. Problems with single files are reported on
/// stderr as they come and counted; `finish()` turns them into the exit status.
struct TagWriting {
    let lib: Library
    let writer: TagWriter
    let force: Bool
    /// Files that were to be written and were not.
    private(set) var failures = 0
    /// Files that already hold the library's tags but whose stamp the library does not know:
    /// a write killed after renaming them, or another tagger that wrote the same values.
    /// Their stamps are recorded, or a later rollback + write would refuse them as changed.
    private(set) var agreeing: [TagWriter.Plan] = []

    struct Planned {
        var plan: TagWriter.Plan
        /// The file's stamp when it is not the song's but one the library recorded earlier.
        var accepting: Set<FileStamp> = []
    }

    /// Held from planning to recording: two writes at once would both pass the "unchanged since
    /// I read it" check and both rename over the same files.
    let lock: WriteLock
    /// Where each copy is noted before its rename (`WriteJournal`).
    let journal: WriteJournal
    /// Stamps of files a killed write renamed and nobody recorded yet: only kept for a dry run,
    /// which must not record them but must not call them changed on disk either.
    private var journaled: [SongID: Set<FileStamp>] = [:]

    /// - Parameter recording: record the files a killed write left renamed (false for a dry run).
    init(lib: Library, force: Bool, recording: Bool = true) throws {
        self.lib = lib
        self.force = force
        writer = TagWriter(art: try ArtStore(directory: lib.location + "/art"))
        lock = try WriteLock(path: lib.location + "/write.lock")
        journal = WriteJournal(library: lib.location)
        // What another write recorded while we waited for the lock is what the files hold now.
        try lib.transactor.refresh()
        if recording {
            try Self.recoverInterrupted(lib, writer: writer, journal: journal)
        } else {
            for e in journal.entries() { journaled[e.song, default: []].insert(e.stamp) }
        }
    }

    /// Reads each song's file and keeps those whose tags differ from the library, in path order.
    /// Missing songs, unreadable or read-only files, and files changed on disk are reported.
    mutating func plan(_ songs: [Song]) throws -> [Planned] {
        let sorted = songs.sorted { $0.path < $1.path }
        for song in sorted where song.missing {
            Terminal.warn("skipped \(song.path): the file was missing at the last scan")
        }
        let present = sorted.filter { !$0.missing }
        // Reading is most of the time of a write that finds little to do: use every core.
        let progress = Progress(title: "Reading tags", total: present.count)
        let results = Mutex([Result<TagWriter.Plan, MediaError>?](repeating: nil, count: present.count))
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, present.count))
        let writer = self.writer
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for i in stride(from: w, to: present.count, by: workers) {
                let r = Result { () throws(MediaError) in try writer.plan(present[i]) }
                results.withLock { $0[i] = r }
                progress.advance()
            }
        }
        progress.finish()
        var planned: [Planned] = []
        for r in results.withLock({ $0 }) {
            switch r {
            case .success(let plan)?:
                if !plan.differences.isEmpty { planned.append(Planned(plan: plan)) }
                else if plan.isChangedOnDisk { agreeing.append(plan) }
            case .failure(let error)?: fail("skipped \(error.localizedDescription)")
            case nil: break
            }
        }
        return try accepted(planned)
    }

    /// The planned files whose stamp the library knows: the song's own, or, after a rollback or
    /// undo took the song back past a write, one the library recorded earlier. A stamp the
    /// library never saw means someone else changed the file; writing would lose that change.
    private mutating func accepted(_ planned: [Planned]) throws -> [Planned] {
        let changed = planned.filter(\.plan.isChangedOnDisk)
        guard !force, !changed.isEmpty else { return planned }
        let recorded = try Self.recordedStamps(of: Set(changed.map(\.plan.song.id)), in: lib)
            .merging(journaled) { $0.union($1) }
        return planned.compactMap { p in
            guard p.plan.isChangedOnDisk else { return p }
            if recorded[p.plan.song.id]?.contains(p.plan.stamp) ?? false {
                return Planned(plan: p.plan, accepting: [p.plan.stamp])
            }
            fail("skipped \(p.plan.song.path): changed on disk since the library last read it; run 'boomic import' to read it, or 'boomic write --force' to overwrite it")
            return nil
        }
    }

    /// Writes the planned files one by one; returns what was written.
    mutating func write(_ planned: [Planned]) -> [TagWriter.Outcome] {
        let progress = Progress(title: "Writing tags", total: planned.count)
        defer { progress.finish() }
        var outcomes: [TagWriter.Outcome] = []
        for p in planned {
            progress.advance()
            do {
                let outcome = try writer.write(p.plan.song, accepting: p.accepting, force: force, journal: journal)
                for d in outcome.unheld {
                    Terminal.warn("warning: \(p.plan.song.path): the file cannot hold \(d.field.name) = \(ChangePrinter.shown(d.library, d.field)) (it reads back as \(ChangePrinter.shown(d.file, d.field)))")
                }
                for note in outcome.notes { Terminal.warn("warning: \(p.plan.song.path): \(note)") }
                if outcome.didWrite { outcomes.append(outcome) }
            } catch {
                fail("not written: \(error.localizedDescription)")
            }
        }
        return outcomes
    }

    /// Commits one `write` transaction with the written files' new size, mtime and fingerprint,
    /// so that a rescan sees them unchanged, and what is left unwritten (`fileValues`: nothing,
    /// unless a field could not be held). Returns its sequence number.
    func record(_ outcomes: [TagWriter.Outcome], message: String?) throws -> Int? {
        guard !outcomes.isEmpty || !agreeing.isEmpty else {
            journal.clear() // lines of copies that were never renamed
            return nil
        }
        let c = try lib.commit(kind: .write, message: message) { basis in
            let stamps: [Assertion] = agreeing.compactMap { plan in
                guard let old = basis[plan.song.id], old.path.sameBytes(as: plan.song.path),
                      TagMap.fields.allSatisfy({ $0.value(in: old) == $0.value(in: plan.song) }) else { return nil }
                var new = old
                new.size = plan.stamp.size
                new.mtime = plan.stamp.mtime
                new.fileValueMap = [:]
                let p = old.patch(to: new)
                return p.isEmpty ? nil : .updateSong(old.id, p)
            }
            let written: [Assertion] = outcomes.compactMap { o in
                // A song moved or removed meanwhile is not the file that was written.
                guard let old = basis[o.song.id], old.path.sameBytes(as: o.song.path) else { return nil }
                var new = old
                new.size = o.stamp.size
                new.mtime = o.stamp.mtime
                new.fingerprint = o.fingerprint ?? old.fingerprint
                var files = Dictionary(o.remaining.map { ($0.field, $0.file) }, uniquingKeysWith: { a, _ in a })
                // The file holds what was planned; a change committed meanwhile (a modify while
                // this wrote) departs from it, and a rescan must know the file's value to keep it.
                for f in TagMap.fields where f.isTag && files[f] == nil && f.value(in: old) != f.value(in: o.song) {
                    files[f] = f.value(in: o.song)
                }
                new.fileValueMap = files
                let p = old.patch(to: new)
                return p.isEmpty ? nil : .updateSong(old.id, p)
            }
            let n = outcomes.count
            let assertions = written + stamps
            let label = n > 0 ? "write tags into \(n) file\(n == 1 ? "" : "s")" : "record \(stamps.count) file\(stamps.count == 1 ? "" : "s") already written"
            return assertions.isEmpty ? nil : (assertions, label)
        }
        // Recorded (or nothing to record): the journal's lines are history now.
        CrashPoint.recorded.reached()
        journal.clear()
        return c?.seq
    }

    /// Records the files that a killed `write` renamed but never recorded (`WriteJournal`),
    /// as that write would have: their new size, mtime and fingerprint, and, for each field where
    /// the file now differs from the library (an edit made since), the file's value, so that the
    /// next `write` writes the edit and a rescan keeps it. A file whose stamp or audio is not the
    /// journal's was changed by someone else afterwards (or never renamed) and is left to
    /// `import`. Must be called holding the write lock.
    static func recoverInterrupted(_ lib: Library, writer: TagWriter, journal: WriteJournal) throws {
        let entries = journal.entries()
        guard !entries.isEmpty else { return }
        var latest: [SongID: WriteJournal.Entry] = [:]
        for e in entries { latest[e.song] = e }
        var found: [(entry: WriteJournal.Entry, file: TagWriter.Reading)] = []
        for e in latest.values.sorted(by: { $0.path < $1.path }) {
            guard let song = lib.basis[e.song], song.path.sameBytes(as: e.path), FileStamp(of: song) != e.stamp,
                  let file = try? writer.read(e.path), file.stamp == e.stamp, file.fingerprint == e.fingerprint
            else { continue }
            found.append((e, file))
        }
        if !found.isEmpty {
            try lib.commit(kind: .write, message: nil) { basis in
                let assertions: [Assertion] = found.compactMap { e, file in
                    guard let old = basis[e.song], old.path.sameBytes(as: e.path) else { return nil }
                    var new = old
                    new.size = file.stamp.size
                    new.mtime = file.stamp.mtime
                    new.fingerprint = file.fingerprint ?? old.fingerprint
                    new.missing = false
                    new.fileValueMap = Dictionary(file.differences(from: old).map { ($0.field, $0.file) },
                                                  uniquingKeysWith: { a, _ in a })
                    let p = old.patch(to: new)
                    return p.isEmpty ? nil : .updateSong(old.id, p)
                }
                let n = assertions.count
                return n == 0 ? nil : (assertions, "record \(n) file\(n == 1 ? "" : "s") written by an interrupted write")
            }
        }
        journal.clear()
    }

    /// `import`'s first step: records what a killed write left (`recoverInterrupted`), so that
    /// the rescan does not take the files' older tags over edits made since. Skipped while a
    /// write is running (its journal is live, and it records its files itself).
    static func recoverBeforeImport(_ lib: Library) throws {
        let journal = WriteJournal(library: lib.location)
        guard FileManager.default.fileExists(atPath: journal.path),
              let lock = try WriteLock(path: lib.location + "/write.lock", waiting: false) else { return }
        try lib.transactor.refresh()
        try recoverInterrupted(lib, writer: TagWriter(art: try ArtStore(directory: lib.location + "/art")), journal: journal)
        withExtendedLifetime(lock) {}
    }

    /// Fails the command (exit 1) when some file was to be written and was not.
    func finish() throws {
        guard failures > 0 else { return }
        throw CLIError("\(failures) file\(failures == 1 ? " was" : "s were") not written; see the messages above")
    }

    private mutating func fail(_ message: String) {
        failures += 1
        Terminal.warn(message)
    }

    /// `field: file value → library value`.
    static func shown(_ d: TagDifference) -> String {
        "\(d.field.name): \(ChangePrinter.shown(d.file, d.field)) → \(Terminal.bold(ChangePrinter.shown(d.library, d.field)))"
    }

    /// Every size and mtime the log ever recorded for these songs' files, from their adds and
    /// the updates after them. Reads the whole log, so only asked when a file's stamp is not
    /// the song's current one.
    static func recordedStamps(of ids: Set<SongID>, in lib: Library) throws -> [SongID: Set<FileStamp>] {
        var current: [SongID: FileStamp] = [:]
        var seen: [SongID: Set<FileStamp>] = [:]
        try lib.transactor.forEachEntry { entry in
            for a in entry.transaction.assertions {
                guard let id = a.songID, ids.contains(id) else { continue }
                switch a {
                case .addSong(let s):
                    current[s.id] = FileStamp(of: s)
                case .updateSong(let id, let patch):
                    guard patch[.size] != nil || patch[.mtime] != nil, var stamp = current[id] else { continue }
                    if let size = patch[.size]?.new.int { stamp.size = size }
                    if let mtime = patch[.mtime]?.new.int { stamp.mtime = mtime }
                    current[id] = stamp
                case .deleteSong, .taglist, .playlist:
                    continue
                }
                if let stamp = current[id] { seen[id, default: []].insert(stamp) }
            }
        }
        return seen
    }

    /// `modify --write`: writes the songs a committed edit changed, and records the write.
    static func afterModify(_ lib: Library, transaction: Transaction, message: String?) throws {
        var writing = try TagWriting(lib: lib, force: false)
        let ids = Set(transaction.assertions.compactMap(\.songID))
        let planned = try writing.plan(ids.compactMap { lib.basis[$0] })
        let outcomes = writing.write(planned)
        let c = try writing.record(outcomes, message: message)
        Out.line("Wrote tags into \(outcomes.count) file\(outcomes.count == 1 ? "" : "s")"
            + (c.map { " (transaction \($0))." } ?? "."))
        try writing.finish()
    }
}

/// An exclusive `flock` on a file in the library folder, released when the process ends
/// (even by `kill -9`), so a dead writer never blocks the next one.
final class WriteLock {
    private let fd: Int32

    convenience init(path: String) throws {
        try self.init(path: path, waiting: true)!
    }

    /// Without `waiting`, nil when another process holds the lock.
    init?(path: String, waiting: Bool) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CLIError("cannot open \(path) (\(String(cString: strerror(errno)))); check that the library folder is writable")
        }
        while flock(fd, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            if !waiting && errno == EWOULDBLOCK {
                close(fd)
                return nil
            }
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw CLIError("cannot lock \(path) (\(reason)); is another boomic write stuck?")
            }
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
