import BoomicCore
import BoomicMedia
import BoomicSystem
import Dispatch
import Foundation
import Synchronization

/// Writing songs' tags into their files and recording the files' new stamps: the body of
/// `boomic write` and of `boomic modify --write`. Problems with single files are reported on
/// stderr as they come and counted; `finish()` turns them into the exit status.
public struct TagWriting {
    public let lib: LibrarySession
    let events: any LibraryEvents
    let writer: TagWriter
    let force: Bool
    /// Files that were to be written and were not.
    public private(set) var failures = 0
    /// Files not tried because a signal stopped the write (`write(_:)`).
    public private(set) var left = 0
    /// Files that already hold the library's tags but whose stamp the library does not know:
    /// a write killed after renaming them, or another tagger that wrote the same values.
    /// Their stamps are recorded, or a later rollback + write would refuse them as changed.
    public private(set) var agreeing: [TagWriter.Plan] = []

    public struct Planned: Sendable {
        public var plan: TagWriter.Plan
        /// The file's stamp when it is not the song's but one the library recorded earlier.
        var accepting: Set<FileStamp> = []

        init(plan: TagWriter.Plan, accepting: Set<FileStamp> = []) {
            self.plan = plan
            self.accepting = accepting
        }
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
    public init(lib: LibrarySession, force: Bool, recording: Bool = true, events: any LibraryEvents) throws {
        // Even a dry run: its list of files to write would promise a write that cannot happen.
        try lib.requireWritable()
        self.lib = lib
        self.events = events
        self.force = force
        writer = TagWriter(art: try lib.artStore())
        let lockPath = lib.location + "/write.lock"
        if let free = try WriteLock(path: lockPath, waiting: false) {
            lock = free
        } else {
            // Said before the wait, which lasts as long as the other write.
            events.warn("waiting for another boomic write into this library to finish…")
            lock = try WriteLock(path: lockPath)
        }
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
    public mutating func plan(_ songs: [Song]) throws -> [Planned] {
        let sorted = songs.sorted { $0.path < $1.path }
        for song in sorted where song.missing {
            events.warn("skipped \(song.path): the file was missing at the last scan")
        }
        // A CUE track's values come from its sheet and its image holds the whole disc: both are
        // the user's bytes, never rewritten. An edited track is refused; the others have
        // nothing of their own to write.
        for song in sorted where !song.missing && song.isTrackOfFile && !song.fileValues.isEmpty {
            fail("skipped \(song.path) track \(song.track.map(String.init) ?? "?"): a CUE track's tags are not written "
                 + "(its sheet and its image are left as they are); the library keeps the edit")
        }
        let present = sorted.filter { !$0.missing && !$0.isTrackOfFile }
        // Reading is most of the time of a write that finds little to do: use every core.
        let progress = events.progress("Reading tags", total: present.count)
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
    ///
    /// A file whose stamp is the song's must also hold what the library last read from it
    /// (`Plan.unexpected`): its size and time alone do not tell that another tagger changed it.
    private mutating func accepted(_ planned: [Planned]) throws -> [Planned] {
        guard !force else { return planned }
        let planned = planned.filter { p in
            guard !p.plan.isChangedOnDisk, let d = p.plan.unexpected.first else { return true }
            fail("skipped \(p.plan.song.path): its \(d.field.name) (\(d.file.brief(as: d.field))) is not what the library last read, "
                 + "though the file's size and time are; another program changed it, or an older boomic did not read that tag: "
                 + "run 'boomic import --reread' to read it, or 'boomic write --force' to overwrite it")
            return false
        }
        let changed = planned.filter(\.plan.isChangedOnDisk)
        guard !changed.isEmpty else { return planned }
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

    /// Writes the planned files one by one; returns what was written. Stops between two files
    /// once a signal asked it to (`Interruption`): `left` says how many were not tried.
    public mutating func write(_ planned: [Planned]) -> [TagWriter.Outcome] {
        let progress = events.progress("Writing tags", total: planned.count)
        defer { progress.finish() }
        var outcomes: [TagWriter.Outcome] = []
        for (i, p) in planned.enumerated() {
            if Interruption.requested != nil {
                left = planned.count - i
                break
            }
            progress.advance()
            do {
                let outcome = try writer.write(p.plan.song, accepting: p.accepting, force: force, journal: journal)
                for d in outcome.unheld {
                    events.warn("warning: \(p.plan.song.path): the file cannot hold \(d.field.name) = \(d.library.brief(as: d.field)) (it reads back as \(d.file.brief(as: d.field)))")
                }
                for note in outcome.notes { events.warn("warning: \(p.plan.song.path): \(note)") }
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
    public func record(_ outcomes: [TagWriter.Outcome], message: String?) throws -> Int? {
        guard !outcomes.isEmpty || !agreeing.isEmpty else {
            journal.clear() // lines of copies that were never renamed
            return nil
        }
        let written = outcomes.map { o in
            WriteGeneration.WrittenFile(song: o.song, stamp: o.stamp, fingerprint: o.fingerprint,
                                        remaining: Dictionary(o.remaining.map { ($0.field, $0.file) }, uniquingKeysWith: { a, _ in a }))
        }
        let agreeing = self.agreeing.map { (song: $0.song, stamp: $0.stamp) }
        let c = try lib.commit(kind: .write, message: message) { basis in
            let assertions = WriteGeneration.record(on: basis, written: written, agreeing: agreeing, tagFields: TagMap.fields)
            let stamps = assertions.count - written.count
            let n = outcomes.count
            let label = n > 0 ? "write tags into \(n) file\(n == 1 ? "" : "s")" : "record \(stamps) file\(stamps == 1 ? "" : "s") already written"
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
    static func recoverInterrupted(_ lib: LibrarySession, writer: TagWriter, journal: WriteJournal) throws {
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
                let assertions = WriteGeneration.recovered(on: basis, files: found.compactMap { e, file in
                    basis[e.song].map { old in
                        (e.song, e.path, file.stamp, file.fingerprint,
                         Dictionary(file.differences(from: old).map { ($0.field, $0.file) }, uniquingKeysWith: { a, _ in a }))
                    }
                })
                let n = assertions.count
                return n == 0 ? nil : (assertions, "record \(n) file\(n == 1 ? "" : "s") written by an interrupted write")
            }
        }
        journal.clear()
    }

    /// `import`'s first step: records what a killed write left (`recoverInterrupted`), so that
    /// the rescan does not take the files' older tags over edits made since. Skipped while a
    /// write is running (its journal is live, and it records its files itself).
    public static func recoverBeforeImport(_ lib: LibrarySession) throws {
        let journal = WriteJournal(library: lib.location)
        guard FileManager.default.fileExists(atPath: journal.path),
              let lock = try WriteLock(path: lib.location + "/write.lock", waiting: false) else { return }
        try lib.transactor.refresh()
        try recoverInterrupted(lib, writer: TagWriter(art: try lib.artStore()), journal: journal)
        withExtendedLifetime(lock) {}
    }

    /// Fails the command (exit 1) when some file was to be written and was not.
    public func finish() throws {
        if left > 0, let signal = Interruption.requested { throw Interrupted(signal: signal, left: left) }
        guard failures > 0 else { return }
        throw Self.notWritten(failures)
    }

    /// A write stopped by a signal (`Interruption`) once what it wrote was recorded.
    public struct Interrupted: Error, CustomStringConvertible {
        public var signal: Int32
        public var left: Int
        public var description: String {
            "interrupted: \(left) file\(left == 1 ? " was" : "s were") not written; run the write again to write \(left == 1 ? "it" : "them")"
        }
    }

    public static func notWritten(_ failures: Int) -> LibraryError {
        LibraryError("\(failures) file\(failures == 1 ? " was" : "s were") not written; see the messages above")
    }

    private mutating func fail(_ message: String) {
        failures += 1
        events.warn(message)
    }

    /// Every size and mtime the log ever recorded for these songs' files, from their adds and
    /// the updates after them. Reads the whole log, so only asked when a file's stamp is not
    /// the song's current one.
    static func recordedStamps(of ids: Set<SongID>, in lib: LibrarySession) throws -> [SongID: Set<FileStamp>] {
        var fold = WriteGeneration.RecordedStamps(of: ids)
        try lib.transactor.forEachEntry { fold.add($0.transaction) }
        return fold.seen
    }

    /// `modify --write`: writes the songs a committed edit changed, and records the write.
    /// Returns how many files were written, the transaction recording them, and how many files
    /// were to be written and were not (each reported through `events`).
    public static func afterModify(_ lib: LibrarySession, transaction: Transaction, message: String?,
                                   events: any LibraryEvents) throws -> (files: Int, seq: Int?, failures: Int) {
        var writing = try TagWriting(lib: lib, force: false, events: events)
        let ids = Set(transaction.assertions.compactMap(\.songID))
        let planned = try writing.plan(ids.compactMap { lib.basis[$0] })
        let outcomes = writing.write(planned)
        let c = try writing.record(outcomes, message: message)
        if writing.left > 0, let signal = Interruption.requested { throw Interrupted(signal: signal, left: writing.left) }
        return (outcomes.count, c, writing.failures)
    }
}
