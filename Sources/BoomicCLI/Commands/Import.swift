import ArgumentParser
import BoomicCore
import BoomicMedia
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan music folders into the library; re-running is an incremental rescan.",
        discussion: """
            New files are added, changed files re-read, moved files keep their identity (matched by \
            audio fingerprint), and files gone from disk are marked missing, not forgotten. Only \
            files whose size or modification time changed are read (all of them with --reread). \
            A folder that cannot be read is skipped with a warning, and its songs are left as they \
            were. One transaction per run.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @Flag(help: "Read every file, not only those whose size or modification time changed (finds files swapped with equal size and time).")
    var reread = false
    @Argument(help: "Folders to scan (remembered); default: the library's music folders.", completion: .directory)
    var folders: [String] = []

    func run() throws {
        let given = try Paths.musicFolders(folders)
        let lib = try Library.open(at: options.location, create: true)
        // Files a killed write renamed are Boomic's, not news from disk (WriteJournal).
        try TagWriting.recoverBeforeImport(lib)
        // Remembered only once they exist: a typo must not break every later rescan.
        if !given.isEmpty { _ = try lib.addFolders(given) }
        let remembered = try lib.folders()
        let roots = given.isEmpty ? remembered : given
        guard !roots.isEmpty else {
            throw CLIError("no music folders to scan; run 'boomic import DIR' with your music folder")
        }
        try Paths.requireExisting(roots)
        // A folder that cannot be read (a root-owned lost+found) must not stop the rest; its
        // songs are left as they were, not marked missing.
        let basis = lib.basis
        let walk = MediaScanner.walk(roots, homes: remembered) { basis.song(atPath: $0) != nil }
        for failure in walk.failures { Terminal.warn("skipped folder \(failure.localizedDescription)") }
        let listed = walk.files
        let art = try ArtStore(directory: lib.location + "/art")
        var toRead = ImportGeneration.filesToRead(in: lib.basis, listed: listed, reread: reread)
        // A cover gone from art/ (deleted, or a library rebuilt by import-json) comes back by
        // reading its file again, even though the file itself did not change.
        let chosen = Set(toRead.map { PathKey($0.path) })
        var present: [String: Bool] = [:]   // one stat per picture, not per song
        toRead += listed.filter { f in
            guard !chosen.contains(PathKey(f.path)), let hash = lib.basis.song(atPath: f.path)?.art else { return false }
            if present[hash] == nil { present[hash] = art.path(forHash: hash) != nil }
            return present[hash] == false
        }
        let progress = Progress(title: "Reading tags", total: toRead.count)
        let result = MediaScanner.readAll(toRead, art: art) { n in progress.advance(by: n) }
        progress.finish()
        for failure in result.failures { Terminal.warn("skipped \(failure.localizedDescription)") }

        let now = Date().timeIntervalSince1970
        var summary = ImportGeneration.Summary()
        let committed = try lib.commit(kind: folders.isEmpty && lib.head > 0 ? .rescan : .import, message: change.message) { basis in
            var ids = SystemIDSource()
            let plan = ImportGeneration.plan(basis: basis, roots: roots, listed: listed, read: result.facts,
                                             unlisted: walk.failures.map(\.path), now: now, ids: &ids,
                                             elsewhere: MediaScanner.elsewhere)
            summary = plan.summary
            let label = Self.label(plan.summary)
            return plan.assertions.isEmpty ? nil : (plan.assertions, label)
        }
        summary.unreadable = result.failures.count
        summary.unchanged -= summary.unreadable
        let line = "\(summary.added) added, \(summary.changed) changed, \(summary.moved) moved, \(summary.missing) missing, \(summary.unchanged) unchanged"
            + (summary.unreadable > 0 ? ", \(summary.unreadable) unreadable" : "")
        if let c = committed {
            Out.line("Imported: \(line) (transaction \(c.seq))")
        } else {
            Out.line("Nothing changed: \(line)")
        }
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
struct SystemIDSource: IDSource {
    mutating func next() -> UUID { UUID() }
}
