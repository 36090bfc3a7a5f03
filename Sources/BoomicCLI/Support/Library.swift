import BoomicCore
import BoomicStore
import Foundation
import Synchronization

/// An open library folder: the Transactor over its log, its music folders and its art.
///
/// The only place the CLI meets the store; commands ask it for bases, history and commits.
final class Library {
    let location: String
    let transactor: Transactor<Transaction, DataBasis>

    static let logName = "library.sqlite"

    private init(location: String, transactor: Transactor<Transaction, DataBasis>) {
        self.location = location
        self.transactor = transactor
    }

    /// Opens the library at `location`; with `create`, makes the folder and the log first.
    static func open(at location: String, create: Bool) throws -> Library {
        let fm = FileManager.default
        let log = location + "/" + logName
        if !fm.fileExists(atPath: log) {
            guard create else {
                throw CLIError("no library at \(location); run 'boomic init' or 'boomic import DIR' first, or pass --library")
            }
            do {
                try fm.createDirectory(atPath: location, withIntermediateDirectories: true)
            } catch {
                throw CLIError("cannot create the library folder \(location): \(error.localizedDescription)")
            }
        }
        let t = try Transactor<Transaction, DataBasis>(
            path: log, create: create, initial: DataBasis(),
            apply: { t, b in b.applying(t) },
            flatten: { ts in Flatten.transactions(ts)! },
            codec: BasisCodec.codec,
            policy: CheckpointPolicy(every: 100, maxWeight: 5_000, retained: 10, weight: { $0.replayWeight })
        )
        let library = Library(location: location, transactor: t)
        // One command per process: freeing tens of thousands of songs' trees on the way out
        // took an eighth of `ls`'s time, and the process is about to end anyway.
        _ = Unmanaged.passRetained(library)
        // But the SQLite connections are closed at exit, which the basis is not needed for:
        // the last close folds the -wal file back into library.sqlite.
        _ = closingAtExit
        opened.withLock { $0.append(t) }
        return library
    }

    /// The transactors this process opened, closed at exit.
    private static let opened = Mutex<[Transactor<Transaction, DataBasis>]>([])

    /// Registers the exit handler once. `atexit` runs on every way out that matters here: `main`
    /// returning, ArgumentParser's `exit(withError:)`, and `exit(0)` on a closed pipe.
    private static let closingAtExit: Void = {
        atexit { Library.closeAll() }
    }()

    /// Closes every library this process opened (their bases stay in memory).
    static func closeAll() {
        for t in opened.withLock({ $0 }) { t.close() }
    }

    var basis: DataBasis { transactor.basis }
    var head: Int { transactor.head }

    /// The basis at REF, or the latest when `ref` is nil (`--as-of`).
    func basis(asOf ref: String?) throws -> DataBasis {
        guard let ref else { return basis }
        return try basis(at: resolve(ref))
    }

    /// The basis at REF (or the latest), seen through a taglist when `view` names one (`--view`).
    ///
    /// With `--as-of`, the taglist is taken as it was defined then, so the view shows what that
    /// taglist held at that moment; a taglist created later is applied with its current rules.
    func basis(asOf ref: String?, view: String?) throws -> DataBasis {
        let b = try basis(asOf: ref)
        guard let view else { return b }
        if let (_, t) = b.taglist(named: view) { return b.view(through: t, timeZone: .current) }
        let (_, t) = try TaglistGeneration.find(view, in: basis)
        return b.view(through: t, timeZone: .current)
    }

    func basis(at seq: Int) throws -> DataBasis {
        seq == head ? basis : try transactor.basis(at: seq)
    }

    func entry(seq: Int) throws -> LogEntry<Transaction> { try transactor.entry(seq: seq) }

    /// Turns a REF (DESIGN §4) into a sequence number; 0 is the empty library.
    func resolve(_ text: String) throws -> Int {
        guard let ref = Ref.parse(text) else {
            throw CLIError("'\(text)' is not a REF: use a transaction number, HEAD, HEAD~N, an id prefix or a date like 2026-11-01T10:00")
        }
        let head = self.head
        switch ref {
        case .seq(let n):
            guard n <= head else {
                // `history` shows ids' first 8 hex digits, and some are all decimal digits.
                let digits = text.trimmingCharacters(in: .whitespaces)
                if digits.count >= 4, let e = try transactor.entry(idPrefix: digits) { return e.seq }
                throw CLIError("there is no transaction \(n); the latest is \(head)")
            }
            return n
        case .head(let back):
            guard back <= head else { throw CLIError("HEAD~\(back) goes back before the first transaction; the history has \(head)") }
            return head - back
        case .idPrefix(let p):
            guard let e = try transactor.entry(idPrefix: p) else { throw CLIError("no transaction id starts with '\(p)'; see 'boomic history'") }
            return e.seq
        case let .date(y, mo, d, h, mi, s):
            var c = DateComponents()
            c.year = y; c.month = mo; c.day = d
            c.hour = h ?? 23; c.minute = mi ?? (h == nil ? 59 : 59); c.second = s ?? 59
            if h != nil && mi == nil { c.minute = 59 }
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = .current
            // The calendar is lenient (30 February would be 1 March): a day it moves is not one.
            guard let date = cal.date(from: c), cal.component(.day, from: date) == d, cal.component(.month, from: date) == mo else {
                throw CLIError("'\(text)' is not a valid date")
            }
            // "The state at the end of that moment": everything up to the last instant it names.
            return try transactor.seq(atOrBefore: date.timeIntervalSince1970 + 0.999_999)
        }
    }

    func summaries(newestFirst: Bool, limit: Int?, includePlays: Bool) throws -> [LogSummary] {
        try transactor.summaries(limit: limit, newestFirst: newestFirst,
                                 excludingKind: includePlays ? nil : Transaction.Kind.play.rawValue)
    }

    /// Rebuilds the undo/redo stacks from the log. Only undo and redo transactions need their
    /// bodies (for what they took back), so the rest is read from the summary columns.
    func undoStack() throws -> UndoStack {
        var stack = UndoStack()
        for s in try transactor.summaries() {
            let t: Transaction
            if s.kind == Transaction.Kind.undo.rawValue || s.kind == Transaction.Kind.redo.rawValue {
                // Only what it took back: an undo of a big rollback holds thousands of updates,
                // and decoding them all for every undo in the log made each undo slower than the last.
                let links = try transactor.body(seq: s.seq, as: UndoLinks.self)
                t = Transaction(id: UUID(uuidString: s.id) ?? UUID(), parent: nil, timestamp: s.time,
                                kind: Transaction.Kind(rawValue: s.kind), label: s.label, assertions: [],
                                undoes: links.undoes, redoes: links.redoes)
            } else {
                t = Transaction(id: UUID(uuidString: s.id) ?? UUID(), parent: nil, timestamp: s.time,
                                kind: Transaction.Kind(rawValue: s.kind), label: s.label, assertions: [])
            }
            stack.record(seq: s.seq, transaction: t)
        }
        return stack
    }

    private struct UndoLinks: Decodable, Sendable {
        var undoes: [UUID]?
        var redoes: UUID?
    }

    /// Generates on the latest basis and commits, with provenance; nil when nothing changes.
    @discardableResult
    func commit(kind: Transaction.Kind, message: String?, undoes: [UUID]? = nil, redoes: UUID? = nil,
                verifying: Bool? = nil,
                _ generate: (DataBasis) throws -> (assertions: [Assertion], label: String)?) throws
        -> (seq: Int, transaction: Transaction)? {
        // Reading a body back before committing it guards against a Codable bug; for an import of
        // tens of thousands of songs it was a third of the commit. Imports come from one
        // well-tested path (the JSON round-trip law runs on thousands of random transactions);
        // so do rollbacks of thousands of songs (a diff), whose callers pass `verifying: false`.
        let verify = verifying ?? (kind != .import && kind != .rescan)
        let r = try transactor.generate(verifying: verify) { basis, head in
            guard let (assertions, label) = try generate(basis) else { return nil }
            let parent = head == 0 ? nil : try transactor.summaries(from: head, through: head).first.flatMap { UUID(uuidString: $0.id) }
            return Transaction(
                id: UUID(), parent: parent, timestamp: Date().timeIntervalSince1970, kind: kind, label: label,
                provenance: .init(command: Boomic.commandLine, message: message, version: Boomic.version),
                assertions: assertions, undoes: undoes, redoes: redoes)
        }
        return r.map { ($0.seq, $0.transaction) }
    }

    /// Which transaction set each field's current value (`blame`), reading the log backwards
    /// in pages and stopping as soon as every field is explained.
    func blame(_ songs: Set<SongID>, fields: [SongField]) throws -> [SongID: [SongField: Blame.Origin]] {
        var through = head
        var result: [SongID: [SongField: Blame.Origin]] = [:]
        var open = songs
        while through > 0, !open.isEmpty {
            let page = try transactor.entries(from: max(1, through - 63), through: through, newestFirst: true)
            let found = Blame.origins(of: open, fields: fields, newestFirst: page.map { ($0.seq, $0.transaction) })
            for (id, byField) in found { result[id, default: [:]].merge(byField) { a, _ in a } }
            open = open.filter { id in (fields.isEmpty ? SongField.allCases : fields).contains { result[id]?[$0] == nil } }
            // Fields still open were not set in this page; a song added in it is fully explained.
            through -= 64
        }
        return result
    }

    // MARK: Music folders

    private var foldersFile: String { location + "/folders.json" }

    /// The remembered music folders, each once (a file written before they were kept unique
    /// may repeat one).
    func folders() throws -> [String] {
        guard let data = FileManager.default.contents(atPath: foldersFile) else { return [] }
        return Self.unique((try? JSONDecoder().decode([String].self, from: data)) ?? [])
    }

    /// Remembers folders for `import` (absolute, normalised); returns the ones that were new.
    func addFolders(_ new: [String]) throws -> [String] {
        var all = try folders()
        let known = Set(all.map(PathKey.init))
        let added = Self.unique(new).filter { !known.contains(PathKey($0)) }
        guard !added.isEmpty else { return [] }
        all += added
        let data = try JSONOut.encoder().encode(all)
        let tmp = foldersFile + ".tmp"
        guard FileManager.default.createFile(atPath: tmp, contents: data),
              rename(tmp, foldersFile) == 0 else {
            throw CLIError("cannot write \(foldersFile); check that the library folder is writable")
        }
        return added
    }

    /// Each path once (by bytes), in first-seen order.
    private static func unique(_ paths: [String]) -> [String] {
        var seen = Set<PathKey>()
        return paths.filter { seen.insert(PathKey($0)).inserted }
    }
}
