import ArgumentParser
import BoomicCore
import BoomicLibrary
import BoomicMedia
import BoomicStore
import Foundation

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the library: replay the log alone and compare it with the checkpoints, the art store and the files.",
        discussion: """
            Checks the file itself (SQLite's integrity check, no transaction missing or damaged), \
            reads every transaction (checking its checksum), rebuilds every checkpointed state from \
            the log alone and compares, checks every block of the snapshot images (checkpoints and \
            library.image) and the index of what each transaction touched, checks that every cover \
            is in art/, and lists songs whose file is gone. Exit code 1 when something is wrong. \
            --repair rebuilds the checkpoints, library.image, that index and damaged SQLite \
            indexes; a log with damaged or missing transactions is saved with \
            'boomic export --salvage' (see Documentation/storage.md).
            """
    )

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Rebuild the checkpoints, library.image and the log's indexes from the log (they are caches; nothing else changes).")
    var repair = false

    func run() throws {
        try Self.examineLog(at: options.location, repair: repair)
        // A repair drops and rewrites every checkpoint: a detached merge writing one meanwhile
        // would leave a checkpoint the repair never compared. Wait for it, and hold the lock so
        // none starts until the repair is done.
        let mergeLock = repair && FileManager.default.fileExists(atPath: options.location + "/" + LibrarySession.logName)
            ? try WriteLock(path: options.location + "/merge.lock", waiting: true) : nil
        defer { withExtendedLifetime(mergeLock) {} }
        // --repair rebuilds the checkpoints where the policy puts them, so the session keeps it.
        let lib = try Library.open(at: options.location, create: false, mergesAfter: false)
        let r = try VerifyFlow.run(lib, repair: repair)
        Out.line("log: \(r.transactions) transactions read, checksums good; \(Formatting.count(r.checkpoints, "checkpoint")) compared")
        Out.line("art: \(r.pictures) pictures referenced, \(r.pictures - r.picturesMissing) present")
        for path in r.filesMissing { Terminal.warn("missing file: \(path)") }
        let gone = r.filesMissing.count
        // Songs marked missing are not present: their files were gone at the last scan.
        Out.line("files: \(r.songs - r.markedMissing - gone) of \(r.songs) present"
                 + (r.markedMissing == 0 ? "" : ", \(r.markedMissing) marked missing")
                 + (gone == 0 ? "" : "; run 'boomic import' to mark the \(gone) gone ones missing"))
        if let kept = r.rebuilt {
            Out.line("checkpoints rebuilt at \(kept.map(String.init).joined(separator: ", "))")
        }
        for p in r.checkpointProblems { Terminal.warn((repair ? "repaired: " : "problem: ") + p) }
        for p in r.problems { Terminal.warn("problem: \(p)") }
        let problems = r.problems + (repair ? [] : r.checkpointProblems)
        if !problems.isEmpty {
            let hint = !repair && !r.checkpointProblems.isEmpty ? "; 'boomic verify --repair' rebuilds the checkpoints, the image and the index" : ""
            throw CLIError("verify found \(Formatting.count(problems.count, "problem"))" + hint)
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
        let path = location + "/" + LibrarySession.logName
        guard FileManager.default.fileExists(atPath: path) else { return } // opening says so
        var ex = try Transactor<Transaction, DataBasis>.examine(path: path)
        if repair, !ex.isIntact, !ex.losesTransactions, (try? Transactor<Transaction, DataBasis>.rebuildIndexes(path: path)) != nil {
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
                + "\(ex.missing.count == 1 ? "is" : "are") missing from the log (it reaches \(ex.cutShort == nil ? "" : "at least ")\(ex.end))")
        }
        for d in ex.damaged { Terminal.warn("problem: transaction \(d.seq) is unreadable (\(d.reason))") }
        if let cut = ex.cutShort { Terminal.warn("problem: library.sqlite: \(cut.description)") }
        throw CLIError("verify found the log damaged"
            + (ex.losesTransactions ? " (lost: \(ex.lostDescription))" : " (no transaction lost; 'boomic verify --repair' rebuilds its indexes)")
            + "; save what is readable with 'boomic export --salvage -o FILE', then 'boomic import-json --library NEWDIR FILE', "
            + "or restore library.sqlite from a backup")
    }
}
