import BoomicCore
import BoomicMedia
import Foundation

/// Scanning music folders into the library: the body of `boomic import`, of the server's `update`,
/// and of anything else that rescans. One transaction per run.
public enum ImportFlow {
    /// What one run found, and the transaction it committed (nil when nothing changed).
    public struct Result: Sendable {
        public var summary: ImportGeneration.Summary
        public var seq: Int?
        public var label: String?
        /// Hard links to files listed under another name, not imported again (`Walk.otherNames`).
        public var otherNames = 0
        /// The guess transaction committed right after the import's (nil when nothing was guessed).
        public var guessSeq: Int?
        public var guesses = GuessGeneration.Summary()
    }

    /// Scans `given` folders (remembering them), or the library's remembered folders when none
    /// are given, and commits what changed on disk.
    ///
    /// - Parameters:
    ///   - given: absolute folders (`Paths.musicFolders`), checked to exist.
    ///   - within: folders inside the remembered ones to scan instead of all of them (MPD's
    ///     `update PATH`): not remembered, and only songs under them can go missing.
    ///   - reread: read every file, not only those whose size or mtime changed.
    /// A folder that cannot be read (a root-owned `lost+found`) is reported through `events` and
    /// its songs are left as they were, not marked missing; so are single unreadable files.
    public static func run(_ lib: LibrarySession, given: [String], within: [String] = [], reread: Bool, message: String?,
                           events: any LibraryEvents, now: Double = Date().timeIntervalSince1970) throws -> Result {
        // Files a killed write renamed are Boomic's, not news from disk (WriteJournal).
        try TagWriting.recoverBeforeImport(lib)
        let given = try lib.asRemembered(given)
        // Remembered only once they exist: a typo must not break every later rescan.
        if !given.isEmpty { _ = try lib.addFolders(given) }
        let remembered = try lib.folders()
        let roots = !given.isEmpty ? given : !within.isEmpty ? within : remembered
        guard !roots.isEmpty else {
            // A library rebuilt by `import-json` holds songs but no remembered folder: name the
            // one they lie in, never walk it unasked (it may be `/`).
            let hint = lib.basis.inferredMusicFolder.map { " (its songs lie under \($0))" } ?? ""
            throw LibraryError("no music folders to scan; run 'boomic import DIR' with your music folder\(hint)")
        }
        try Paths.requireExisting(roots)
        let basis = lib.basis
        // The path index every listed file is looked up in, built on another core while the
        // walk waits on the file system: a ninth of an unchanged rescan at 50,000 songs. Whoever
        // asks for it first after the walk waits for it under the index cache's lock.
        DispatchQueue.global(qos: .userInitiated).async { _ = basis.paths }
        let walk = MediaScanner.walk(roots, homes: remembered) { basis.paths[PathKey($0)]?.isEmpty == false }
        for failure in walk.failures { events.warn("skipped folder \(failure.localizedDescription)") }
        for name in walk.badNames {
            events.warn("skipped \(name): its name is not UTF-8, and Boomic keeps paths as text; rename it to UTF-8 (convmv -f latin1 -t utf-8 -r --notest FOLDER)")
        }
        TagWriter.removeStrayCopies(walk.strayCopies)
        let listed = walk.files
        let art = try lib.artStore(musicFolders: remembered)
        let sheets = CueSheets.read(walk.sheets, listed: listed)
        for warning in sheets.warnings { events.warn(warning) }
        var toRead = ImportGeneration.filesToRead(in: basis, listed: listed, reread: reread)
        var chosen = Set(toRead.map { PathKey($0.path) })
        // A file a sheet names, or whose songs are tracks, is read at every rescan: its sheet
        // may have come, changed or gone while the file stayed as it was. Sheets are rare, and
        // a read that changes nothing commits nothing.
        let cut = ImportGeneration.pathsOfTracks(in: basis)
        let sheeted = listed.filter { f in
            !chosen.contains(PathKey(f.path)) && (sheets.names(f.path) || cut.contains(PathKey(f.path)))
        }
        toRead += sheeted
        chosen.formUnion(sheeted.map { PathKey($0.path) })
        // Known songs whose files did not change are read again when their cover may have:
        // - a cover gone from art/ (deleted, or a library rebuilt by import-json) comes back;
        // - a folder whose cover file was added, replaced or removed since the last import
        //   gives its songs without a picture of their own the folder's anew, and so does an
        //   album folder to the songs of the disc folders in it.
        let marks = lib.folderCoverMarks()
        let changedFolders = Set(walk.covers.compactMap { folder, mark in
            marks == nil || marks?[folder] == mark ? nil : PathKey(folder)
        })
        var present: [String: Bool] = [:]   // one stat per picture, not per song
        let covers = ImportGeneration.artByPath(in: basis)
        toRead += listed.filter { f in
            let key = PathKey(f.path)
            guard !chosen.contains(key), basis.paths[key]?.isEmpty == false else { return false }
            if !changedFolders.isEmpty,
               ArtStore.coverFolders(forSongsIn: Self.folder(of: f.path)).contains(where: { changedFolders.contains(PathKey($0)) }) {
                return true
            }
            guard let hash = covers[key] else { return false }
            if present[hash] == nil { present[hash] = art.path(forHash: hash) != nil }
            return present[hash] == false
        }
        let progress = events.progress("Reading tags", total: toRead.count)
        let read = MediaScanner.readAll(toRead, art: art) { n in progress.advance(by: n) }
        progress.finish()
        for failure in read.failures { events.warn("skipped \(failure.localizedDescription)") }
        // A sheet beside an image wins; else what a file carries inside (an embedded sheet,
        // chapters) makes its tracks.
        let facts = sheets.apply(to: read.facts) { events.warn($0) }.flatMap { f in
            f.embeddedTracks { events.warn($0) } ?? [f]
        }

        var summary = ImportGeneration.Summary()
        let committed = try lib.commit(kind: given.isEmpty && lib.head > 0 ? .rescan : .import, message: message) { basis in
            var ids = SystemIDSource()
            let plan = ImportGeneration.plan(basis: basis, roots: roots, listed: listed, read: facts,
                                             unlisted: walk.failures.map(\.path), now: now, ids: &ids,
                                             elsewhere: MediaScanner.elsewhere)
            summary = plan.summary
            return plan.assertions.isEmpty ? nil : (plan.assertions, label(plan.summary))
        }
        let newMarks = Self.marks(marks ?? [:], updatedWith: walk, roots: roots)
        if newMarks != marks { lib.keepFolderCoverMarks(newMarks) }
        summary.unchanged -= read.failures.count
        summary.unreadable = read.failures.count + walk.badNames.count
        var result = Result(summary: summary, seq: committed?.seq, label: committed?.transaction.label, otherNames: walk.otherNames)
        if let committed {
            (result.guessSeq, result.guesses) = try guess(lib, after: committed.transaction, musicFolders: remembered, message: message)
        }
        return result
    }

    /// Commits what Boomic guesses for the songs `imported` added or changed (`GuessGeneration`)
    /// as a transaction of its own, kind `guess`, so that `undo` takes back the guesses alone.
    /// Only those songs: an unchanged file is not read, so a guess the user undid is not made
    /// again until its file changes or moves.
    static func guess(_ lib: LibrarySession, after imported: Transaction, musicFolders: [String], message: String?) throws
        -> (Int?, GuessGeneration.Summary) {
        let ids: [SongID] = imported.assertions.compactMap { a in
            switch a {
            case .addSong(let s): return s.id
            // A song only marked missing has no file to guess from.
            case .updateSong(let id, let patch): return patch.keys.contains { $0 != .missing } ? id : nil
            default: return nil
            }
        }
        guard !ids.isEmpty else { return (nil, GuessGeneration.Summary()) }
        var summary = GuessGeneration.Summary()
        let committed = try lib.commit(kind: .guess, message: message, verifying: false) { basis in
            let (assertions, s) = GuessGeneration.guesses(basis: basis, songs: ids, musicFolders: musicFolders)
            summary = s
            return assertions.isEmpty ? nil : (assertions, guessLabel(s))
        }
        return (committed?.seq, committed == nil ? GuessGeneration.Summary() : summary)
    }

    static func guessLabel(_ s: GuessGeneration.Summary) -> String {
        let fields = s.fields.sorted { $0.key < $1.key }.map { "\($0.key.name) \($0.value)" }
        return "guess: \(s.songs) song\(s.songs == 1 ? "" : "s") (" + fields.joined(separator: ", ") + ")"
    }

    /// The folder a listed file is in, as the walk names it.
    static func folder(of path: String) -> String {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
    }

    /// The cover marks after a walk: those of the folders walked replace the old; a folder no
    /// longer there is dropped when every folder could be read (else it may only be unreadable).
    static func marks(_ old: [String: String], updatedWith walk: Walk, roots: [String]) -> [String: String] {
        var marks = old
        if walk.failures.isEmpty {
            let walked = roots.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
            marks = marks.filter { folder, _ in !walked.contains { (folder + "/").hasPrefix($0) } }
        }
        marks.merge(walk.covers) { _, new in new }
        return marks
    }

    static func label(_ s: ImportGeneration.Summary) -> String {
        var parts: [String] = []
        if s.added > 0 { parts.append("\(s.added) new") }
        if s.changed > 0 { parts.append("\(s.changed) changed") }
        if s.moved > 0 { parts.append("\(s.moved) moved") }
        if s.missing > 0 { parts.append("\(s.missing) missing") }
        return "import: " + parts.joined(separator: ", ")
    }
}

/// Fresh random ids for new songs; BoomicCore takes ids as a parameter so it stays deterministic.
public struct SystemIDSource: IDSource {
    public init() {}
    public mutating func next() -> UUID { UUID() }
}
