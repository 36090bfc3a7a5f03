import ArgumentParser
import BoomicCore
import BoomicMedia
import BoomicStore
import Foundation

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the library: replay the log alone and compare it with the checkpoints, the art store and the files.",
        discussion: """
            Checks the file itself (SQLite's integrity check, no transaction missing or damaged), \
            reads every transaction (checking its checksum), rebuilds every checkpointed state from \
            the log alone and compares, checks that every cover is in art/, and lists songs whose \
            file is gone. Exit code 1 when something is wrong. --repair rebuilds the checkpoints \
            and damaged indexes; a log with damaged or missing transactions is saved with \
            'boomic export --salvage' (see Documentation/storage.md).
            """
    )

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Rebuild the checkpoints and the log's indexes from the log (they are caches; nothing else changes).")
    var repair = false

    func run() throws {
        try Self.examineLog(at: options.location, repair: repair)
        let lib = try Library.open(at: options.location, create: false)
        var problems: [String] = []
        var checkpointProblems: [String] = []   // fixed by --repair
        let checkpoints = Set(try lib.transactor.checkpointSeqs())
        var replayed = DataBasis()
        var count = 0
        try lib.transactor.forEachEntry { e in
            replayed = replayed.applying(e.transaction)
            count += 1
            if checkpoints.contains(e.seq) {
                do {
                    if let stored = try lib.transactor.storedCheckpoint(at: e.seq), stored != replayed {
                        checkpointProblems.append("checkpoint \(e.seq) differs from the log replayed to \(e.seq)")
                    }
                } catch {
                    checkpointProblems.append("checkpoint \(e.seq) is damaged (\(error.localizedDescription))")
                }
            }
            if e.seq == lib.head {
                problems += replayed.invariantViolations().map { "after \(e.seq): \($0)" }
            }
        }
        if replayed != lib.basis { problems.append("the opened library differs from the log replayed from the start") }
        Out.line("log: \(count) transactions read, checksums good; \(checkpoints.count) checkpoint\(checkpoints.count == 1 ? "" : "s") compared")

        let fm = FileManager.default
        var artMissing = 0, filesMissing: [Song] = []
        var seenArt = Set<String>()
        let art = try ArtStore(directory: lib.location + "/art")
        for s in lib.basis.songs.values {
            if let a = s.art, seenArt.insert(a).inserted, art.path(forHash: a) == nil { artMissing += 1 }
            if !s.missing, !fm.fileExists(atPath: s.path) { filesMissing.append(s) }
        }
        if artMissing > 0 { problems.append("\(artMissing) cover\(artMissing == 1 ? " is" : "s are") missing from art/; run 'boomic import' to store them again") }
        Out.line("art: \(seenArt.count) pictures referenced, \(seenArt.count - artMissing) present")
        for s in filesMissing.sorted(by: { $0.path < $1.path }) { Terminal.warn("missing file: \(s.path)") }
        if !filesMissing.isEmpty {
            problems.append("\(filesMissing.count) song file\(filesMissing.count == 1 ? " is" : "s are") gone; run 'boomic import' to mark \(filesMissing.count == 1 ? "it" : "them") missing")
        }
        Out.line("files: \(lib.basis.songs.count - filesMissing.count) of \(lib.basis.songs.count) present" + (filesMissing.isEmpty ? "" : "; run 'boomic import' to mark the \(filesMissing.count) gone ones missing"))

        if repair {
            let kept = try lib.transactor.rebuildCheckpoints()
            Out.line("checkpoints rebuilt at \(kept.map(String.init).joined(separator: ", "))")
        }
        for p in checkpointProblems { Terminal.warn((repair ? "repaired: " : "problem: ") + p) }
        for p in problems { Terminal.warn("problem: \(p)") }
        if !repair { problems += checkpointProblems }
        if !problems.isEmpty {
            let hint = !repair && !checkpointProblems.isEmpty ? "; 'boomic verify --repair' rebuilds the checkpoints" : ""
            throw CLIError("verify found \(problems.count) problem\(problems.count == 1 ? "" : "s")" + hint)
        }
        Out.line("OK")
    }

    /// Checks the log file before opening it (opening refuses a damaged log with one line):
    /// lists every missing or unreadable transaction and what SQLite's integrity check found,
    /// and says how to save the rest.
    ///
    /// With `repair`, damage to the indexes alone (every transaction readable) is repaired by
    /// rebuilding them, as checkpoints are rebuilt.
    static func examineLog(at location: String, repair: Bool) throws {
        let path = location + "/" + Library.logName
        guard FileManager.default.fileExists(atPath: path) else { return } // opening says so
        var ex = try Transactor<Transaction, DataBasis>.examine(path: path)
        if repair, !ex.isIntact, ex.holes.isEmpty, (try? Transactor<Transaction, DataBasis>.rebuildIndexes(path: path)) != nil {
            let before = ex.integrity
            ex = try Transactor<Transaction, DataBasis>.examine(path: path)
            if ex.isIntact {
                for line in before { Terminal.warn("repaired: library.sqlite: \(line)") }
                Terminal.warn("repaired: rebuilt the log's indexes")
                return
            }
        }
        guard !ex.isIntact else { return }
        for line in ex.integrity { Terminal.warn("problem: library.sqlite: \(line)") }
        if !ex.missing.isEmpty {
            Terminal.warn("problem: transaction\(ex.missing.count == 1 ? "" : "s") \(describeSeqs(ex.missing)) "
                + "\(ex.missing.count == 1 ? "is" : "are") missing from the log (it reaches \(ex.end))")
        }
        for d in ex.damaged { Terminal.warn("problem: transaction \(d.seq) is unreadable (\(d.reason))") }
        let holes = ex.holes
        throw CLIError("verify found the log damaged"
            + (holes.isEmpty ? " (no transaction lost; 'boomic verify --repair' rebuilds its indexes)" : " (lost: \(describeSeqs(holes)))")
            + "; save what is readable with 'boomic export --salvage -o FILE', then 'boomic import-json --library NEWDIR FILE', "
            + "or restore library.sqlite from a backup")
    }
}
