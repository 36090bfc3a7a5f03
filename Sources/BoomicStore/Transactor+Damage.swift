import Foundation

/// Reading a damaged log: what is wrong with it, and what can be saved. Both work on the file
/// alone, without opening it as a transactor (which refuses a damaged log), and never write.
extension Transactor {
    /// Examines the log file at `path`: every row's checksum, the seqs that no row has, and
    /// SQLite's own `integrity_check` (which finds damaged pages and indexes). Bodies are not
    /// decoded (`verify` decodes them next, replaying the log).
    public static func examine(path: String) throws -> LogExamination {
        let scanned = try scan(path: path, decoding: false)
        scanned.log.connection.close()
        return scanned.examination
    }

    /// What can be saved of the log at `path`: when nothing is lost, every transaction; else the
    /// newest checkpoint at or after a hole that decodes, plus the readable transactions after
    /// it up to the next hole; without such a checkpoint, the transactions before the first hole.
    public static func salvage(path: String, codec: CheckpointCodec<Basis>?) throws -> Salvage<T, Basis> {
        let (ex, rows, log) = try scan(path: path, decoding: true)
        defer { log.connection.close() }
        let holes = ex.holes
        guard let firstHole = holes.first else {
            return Salvage(checkpoint: nil, entries: rows.map { LogEntry(seq: $0.key, transaction: $0.value) }.sorted { $0.seq < $1.seq },
                           lost: [], folded: [], end: ex.end, cutShort: ex.cutShort)
        }
        var start: (seq: Int, basis: Basis)?
        if let codec {
            let candidates = ((try? log.checkpoints()) ?? []).map(\.seq).filter { $0 >= firstHole && $0 <= ex.end }
            for seq in candidates.reversed() {
                let found = try? log.checkpoint(at: seq, format: codec.format, { try codec.decode($0) })
                if case .success(let basis)? = found {
                    start = (seq, basis)
                    break
                }
            }
        }
        let from = start?.seq ?? 0
        let stop = holes.first { $0 > from } ?? ex.end + 1
        let entries = rows.filter { $0.key > from && $0.key < stop }
            .map { LogEntry(seq: $0.key, transaction: $0.value) }.sorted { $0.seq < $1.seq }
        let lost = Set(holes).union(stop > ex.end ? [] : Array(stop...ex.end)).sorted()
        let folded = rows.keys.filter { $0 <= from }.sorted()
        return Salvage(checkpoint: start, entries: entries, lost: lost, folded: folded, end: ex.end, cutShort: ex.cutShort)
    }

    /// Reads everything readable of the log at `path`, tolerating damage at every step.
    private static func scan(path: String, decoding: Bool) throws -> (examination: LogExamination, rows: [Int: T], log: SQLiteLog) {
        let log = try SQLiteLog(path: path, create: false, immutable: try readsImmutably(path), salvaging: true)
        var integrity: [String] = []
        do {
            let stmt = try log.connection.statement("PRAGMA integrity_check(20)")
            defer { stmt.reset() }
            while try stmt.step() {
                // One row may hold several lines; the first says which database.
                integrity += stmt.text(0).split(separator: "\n").map(String.init)
                    .filter { $0 != "ok" && !$0.hasPrefix("*** in database") }
            }
        } catch {
            integrity.append("the integrity check stopped: \(Self.reason(error))")
        }
        // A damaged page cuts a scan short: scanning the table both ways and the id index finds
        // the rows on either side of it.
        var seqs = Set<Int>()
        for sql in ["SELECT seq FROM log ORDER BY seq", "SELECT seq FROM log ORDER BY seq DESC",
                    "SELECT seq FROM log INDEXED BY sqlite_autoindex_log_1"] {
            do {
                let stmt = try log.connection.statement(sql)
                defer { stmt.reset() }
                while try stmt.step() { seqs.insert(stmt.int(0)) }
            } catch {}
        }
        let newestCheckpoint = (try? log.connection.scalarInt("SELECT max(seq) FROM checkpoints")) ?? 0
        // What SQLite cannot say: the pages past a truncated file's end, and the seqs their
        // surviving parents name. Only a file whose WAL is empty holds every page itself.
        let root = (try? log.connection.scalarInt("SELECT rootpage FROM sqlite_master WHERE name = 'log'")) ?? 0
        let pages = walIsEmpty(path) ? LogFilePages.read(path: path, root: root, walking: !integrity.isEmpty) : nil
        var rows: [Int: T] = [:]
        var damaged: [LogExamination.Damaged] = []
        var present: [Int] = []
        let decoder = JSONDecoder()
        for seq in seqs.sorted() where seq > 0 {
            do {
                var row: LogRow?
                try log.forEachRow(where: "seq = ?", [.int(seq)]) { row = $0 }
                // Listed by the index but not in the table: missing, as if the index were not there.
                guard let row else { continue }
                present.append(seq)
                if decoding { rows[seq] = try decode(row.body, seq: seq, decoder) }
            } catch {
                if present.last != seq { present.append(seq) }
                damaged.append(.init(seq: seq, reason: Self.reason(error)))
            }
        }
        let highestNamed = pages?.highestNamed ?? 0
        let end = max(present.last ?? 0, newestCheckpoint, highestNamed)
        let have = Set(present)
        let missing = end == 0 ? [] : (1...end).filter { !have.contains($0) }
        var ex = LogExamination(present: present, newestCheckpoint: newestCheckpoint, missing: missing,
                                damaged: damaged, integrity: integrity)
        ex.highestNamed = highestNamed
        if let pages, pages.isCutShort { ex.cutShort = .init(pages: pages.present, of: pages.expected) }
        return (ex, rows, log)
    }

    /// Why a row is unreadable, in a few words.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case StoreError.corrupt(_, let reason), StoreError.undecodable(_, let reason): return reason
        case StoreError.sqlite(_, _, let message): return message
        default: return error.localizedDescription
        }
    }
}

extension Transactor {
    /// Rebuilds the indexes of the log file at `path` from its tables (`REINDEX`): an index is
    /// derived data, like a checkpoint, so a damaged one loses nothing once rebuilt. Fails (and
    /// the salvage is the way out) when the damage is in the pages a rebuild must walk.
    public static func rebuildIndexes(path: String) throws {
        let log = try SQLiteLog(path: path, create: false)
        defer { log.connection.close() }
        try log.connection.execute("REINDEX")
        log.connection.checkpointWAL()
    }
}
