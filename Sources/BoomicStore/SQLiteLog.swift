import Foundation

/// One row of the log as stored: the transaction's JSON body and the columns copied out of it.
///
/// `kind`, `label` and `time` are copies so that `history` can list transactions without decoding
/// bodies, and so that the file reads well in the `sqlite3` shell.
/// A checkpoint's place and the replay cost it saves, without its data.
struct StoredCheckpoint: Equatable, Sendable {
    var seq: Int
    /// The summed `CheckpointPolicy.weight` of the transactions since the previous checkpoint.
    var weight: Int
    /// The length of its data in bytes (retention keeps checkpoints by size).
    var size: Int = 1
}

struct LogRow {
    var seq: Int
    var id: String
    var time: Double
    var kind: String
    var label: String
    var body: Data
}

/// The append-only log and its checkpoints in one SQLite file (DESIGN §3 "The log on disk").
///
/// WAL mode, so readers never block the writer nor the writer readers; `synchronous=FULL`, so a
/// commit is on disk when it returns; `BEGIN IMMEDIATE` for commits, so two processes serialize.
/// Every body is checksummed and verified on every read. Knows rows, not transactions: decoding
/// is the `Transactor`'s business.
///
/// Not `Sendable`, like the connection it owns.
final class SQLiteLog {
    /// The log format this build writes and understands (`PRAGMA user_version`).
    static let schemaVersion = 1
    /// `PRAGMA application_id` of a Boomic library ("Boom" in ASCII), so that pointing `--library`
    /// at some other program's database is refused rather than written into.
    static let applicationID: Int32 = 0x426F_6F6D

    let connection: SQLiteConnection
    var path: String { connection.path }

    /// How much of the file SQLite maps for reading (`PRAGMA mmap_size`).
    static let mappedBytes = 1 << 40

    /// Opens the log at `path`, creating the file and its tables when `create` allows it.
    ///
    /// `salvaging` reads a damaged file as far as it goes, for `Transactor.examine` and
    /// `salvage`, which never write: SQLite refuses a file shorter than its header says
    /// ("database disk image is malformed") unless `writable_schema` is on, and then reads the
    /// pages that are there.
    init(path: String, create: Bool, immutable: Bool = false, salvaging: Bool = false) throws {
        if !create, !FileManager.default.fileExists(atPath: path) {
            throw StoreError.cannotOpen(path: path, code: .cantOpen, message: "no such file")
        }
        connection = try SQLiteConnection(path: path, immutable: immutable)
        do {
            if salvaging { try connection.execute("PRAGMA writable_schema=ON") }
            if !immutable {
                try connection.execute("PRAGMA synchronous=FULL")
                // Every fold of the -wal file goes through checkpointWAL, which makes sure the
                // disk has room first; SQLite's own, at a commit past 1,000 pages, would not.
                try connection.execute("PRAGMA wal_autocheckpoint=0")
            }
            // Pages are read from a mapping of the file rather than a `pread` each: an older
            // state's checkpoint is megabytes of overflow pages (10.5 MB at 50,000 songs: 19–60 ms
            // of `pread`s here, 4 ms mapped), and `--as-of`, `diff` and rollbacks read thousands of
            // rows. A mapped file must not shrink under its readers, and a library's never does:
            // no `VACUUM` in place, no auto-vacuum, and writes still go through `write`. SQLite
            // clamps the size to its build's limit (2 GB on Debian).
            // Not for a damaged file, where a read past its end would be a signal, not an error.
            if !salvaging { try connection.execute("PRAGMA mmap_size=\(Self.mappedBytes)") }
            try prepareSchema(create: create)
        } catch StoreError.sqlite(_, let code, _) where code.is(.notADatabase) {
            throw StoreError.notADatabase(path: path)
        }
    }

    // MARK: Schema

    private func prepareSchema(create: Bool) throws {
        if try isCurrent() { return }
        // A library is created with its tables in one transaction, so a file that exists
        // without them was emptied: opening it must not look like (or become) a new library.
        guard create else {
            // Another program's tables: not ours, and not damaged.
            if try connection.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0 > 0 { throw StoreError.notALibrary(path: path) }
            throw StoreError.damagedLog(path: path, reason: "it holds no log at all (it is empty or was truncated)")
        }
        // journal_mode cannot change inside a transaction; WAL is persistent, set once at creation.
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.transaction(immediate: true) {
            // Another process may have created the tables while we waited for the lock.
            if try isCurrent() { return }
            let tables = try connection.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
            guard tables == 0 else { throw StoreError.notALibrary(path: path) }
            try connection.execute("""
                CREATE TABLE log(
                    seq INTEGER PRIMARY KEY,
                    id TEXT UNIQUE NOT NULL,
                    time REAL NOT NULL,
                    kind TEXT NOT NULL,
                    label TEXT NOT NULL,
                    body TEXT NOT NULL,
                    checksum TEXT NOT NULL
                );
                CREATE TABLE checkpoints(
                    seq INTEGER PRIMARY KEY,
                    format INTEGER NOT NULL,
                    weight INTEGER NOT NULL,
                    checksum TEXT NOT NULL,
                    data BLOB NOT NULL
                );
                PRAGMA application_id=\(Self.applicationID);
                PRAGMA user_version=\(Self.schemaVersion);
                """)
        }
    }

    /// True when the file already holds a log this build understands; throws when it is foreign
    /// or newer; false when it is empty and ours to create.
    private func isCurrent() throws -> Bool {
        let version = try connection.scalarInt("PRAGMA user_version") ?? 0
        let app = try connection.scalarInt("PRAGMA application_id") ?? 0
        if app == 0, version == 0 { return false }
        guard app == Int(Self.applicationID) else { throw StoreError.notALibrary(path: path) }
        guard version <= Self.schemaVersion else {
            throw StoreError.newerSchema(path: path, found: version, supported: Self.schemaVersion)
        }
        return true
    }

    // MARK: Log rows

    /// Throws `StoreError.damagedLog` when the log contradicts itself: fewer rows than its
    /// highest seq (a row deleted in the middle), a first seq other than 1, or a checkpoint past
    /// its last row (the file truncated, or rows deleted at the end). Cheap enough for every
    /// open (the count reads the id index, the rest are single lookups), and it is what keeps a
    /// damaged file from reading as a shorter history or an empty library.
    func checkIntact() throws {
        // One read transaction: a commit by another process between the counts is no damage.
        var head = 0, count = 0, first = 0, checkpoint = 0
        try connection.transaction(immediate: false) {
            head = try self.head()
            count = try connection.scalarInt("SELECT count(*) FROM log") ?? 0
            first = try connection.scalarInt("SELECT min(seq) FROM log") ?? 0
            checkpoint = try connection.scalarInt("SELECT max(seq) FROM checkpoints") ?? 0
        }
        if checkpoint > head {
            throw StoreError.damagedLog(path: path, reason: head == 0
                ? "it holds no transactions but a checkpoint after transaction \(checkpoint)"
                : "its last transaction is \(head) but it holds a checkpoint after transaction \(checkpoint)")
        }
        if count != head || (count > 0 && first != 1) {
            throw StoreError.damagedLog(path: path, reason: "it holds \(count) transactions numbered \(first) to \(head)")
        }
    }

    /// The highest sequence number in the log, 0 when it is empty.
    func head() throws -> Int {
        try connection.scalarInt("SELECT max(seq) FROM log") ?? 0
    }

    /// Appends a row; its checksum is computed here. Call inside `transaction(immediate: true)`.
    func append(_ row: LogRow) throws {
        let checksum = row.body.withUnsafeBytes { Checksum.string(of: $0) }
        let insert = try connection.statement(
            "INSERT INTO log(seq, id, time, kind, label, body, checksum) VALUES (?, ?, ?, ?, ?, ?, ?)")
        do {
            try insert.run(.int(row.seq), .text(row.id), .double(row.time), .text(row.kind), .text(row.label),
                           .utf8(row.body), .text(checksum))
        } catch StoreError.sqlite(_, .constraintUnique, _) {
            throw StoreError.duplicateID(row.id) // the id is the log's only UNIQUE column
        }
    }

    /// Calls `body` with each row matching `whereClause`, in `order`, verifying checksums.
    ///
    /// `whereClause` and `order` are fixed SQL from this module, never user text; values go in `arguments`.
    func forEachRow(where whereClause: String, _ arguments: [SQLiteValue], newestFirst: Bool = false,
                    limit: Int? = nil, _ body: (LogRow) throws -> Void) throws {
        let sql = "SELECT seq, id, time, kind, label, body, checksum FROM log WHERE \(whereClause) "
            + "ORDER BY seq \(newestFirst ? "DESC" : "ASC") LIMIT ?"
        let stmt = try connection.statement(sql)
        try stmt.bind(arguments + [.int(limit ?? -1)])
        defer { stmt.reset() }
        while try stmt.step() {
            let seq = stmt.int(0)
            let stored = stmt.text(6)
            let data = try stmt.withBytes(5) { raw -> Data in
                let actual = Checksum.string(of: raw)
                guard actual == stored else {
                    throw StoreError.corrupt(seq: seq, reason: "its checksum is \(actual) but the log says \(stored)")
                }
                return Data(raw)
            }
            try body(LogRow(seq: seq, id: stmt.text(1), time: stmt.double(2), kind: stmt.text(3),
                            label: stmt.text(4), body: data))
        }
    }

    /// Rows with `from <= seq <= through`, oldest first.
    /// The columns of rows without their bodies: `history` lists thousands of transactions
    /// whose bodies (an import is tens of megabytes) it never shows.
    func summaries(from: Int, through: Int, limit: Int? = nil, newestFirst: Bool = false,
                   excludingKind excluded: String? = nil) throws -> [(seq: Int, id: String, time: Double, kind: String, label: String)] {
        let sql = "SELECT seq, id, time, kind, label FROM log WHERE seq >= ? AND seq <= ? AND kind != ? "
            + "ORDER BY seq \(newestFirst ? "DESC" : "ASC") LIMIT ?"
        let stmt = try connection.statement(sql)
        try stmt.bind([.int(from), .int(through), .text(excluded ?? "\u{0}"), .int(limit ?? -1)])
        defer { stmt.reset() }
        var out: [(seq: Int, id: String, time: Double, kind: String, label: String)] = []
        while try stmt.step() {
            out.append((stmt.int(0), stmt.text(1), stmt.double(2), stmt.text(3), stmt.text(4)))
        }
        return out
    }

    func rows(from: Int, through: Int, limit: Int? = nil, newestFirst: Bool = false) throws -> [LogRow] {
        var out: [LogRow] = []
        try forEachRow(where: "seq >= ? AND seq <= ?", [.int(from), .int(through)], newestFirst: newestFirst,
                       limit: limit) { out.append($0) }
        return out
    }

    /// The rows whose id starts with `prefix` (at most `limit`).
    func rows(idPrefix prefix: String, limit: Int) throws -> [LogRow] {
        var out: [LogRow] = []
        // Ids are lowercase hex and dashes, all below "~", so this range is exactly the prefix's
        // and it uses the UNIQUE index instead of scanning like LIKE would.
        try forEachRow(where: "id >= ? AND id < ?", [.text(prefix), .text(prefix + "~")], limit: limit) {
            out.append($0)
        }
        return out
    }

    /// The bytes of the bodies of the rows `after < seq <= through`, newest first, counted
    /// until past `limit`, without reading the bodies; 0 for an empty range.
    func bodyBytes(after: Int, through: Int, limit: Int = .max) throws -> Int {
        guard through > after else { return 0 }
        return try connection.summedSizes(table: "log", column: "body", rowids: (after + 1)...through, limit: limit)
    }

    /// The last seq whose time is at or before `time`; 0 when none is.
    func seq(atOrBefore time: Double) throws -> Int {
        try connection.scalarInt("SELECT max(seq) FROM log WHERE time <= ?", .double(time)) ?? 0
    }

    // MARK: Checkpoints

    /// All stored checkpoints (of any format), ascending, without their data.
    func checkpoints() throws -> [StoredCheckpoint] {
        // length() of a blob reads its size from the record header, not its overflow pages.
        let stmt = try connection.statement("SELECT seq, weight, length(data) FROM checkpoints ORDER BY seq")
        defer { stmt.reset() }
        var out: [StoredCheckpoint] = []
        while try stmt.step() { out.append(StoredCheckpoint(seq: stmt.int(0), weight: stmt.int(1), size: stmt.int(2))) }
        return out
    }

    /// The seqs of the checkpoints of `format` at or before `seq`, newest first.
    func checkpointSeqs(atOrBefore seq: Int, format: Int) throws -> [Int] {
        let stmt = try connection.statement("SELECT seq FROM checkpoints WHERE seq <= ? AND format = ? ORDER BY seq DESC")
        try stmt.bind([.int(seq), .int(format)])
        defer { stmt.reset() }
        var out: [Int] = []
        while try stmt.step() { out.append(stmt.int(0)) }
        return out
    }

    /// The first `count` bytes of the checkpoint at `seq` (an image's header), without reading
    /// the rest; nil when there is none or it is shorter. Not checked against the checksum.
    func checkpointPrefix(seq: Int, count: Int) -> [UInt8]? {
        connection.blobPrefix(table: "checkpoints", column: "data", rowid: seq, count: count)
    }

    /// Calls `body` with each checkpoint at or before `seq` in `format`, newest first, until it
    /// returns a value. Checkpoints whose checksum fails are skipped: a checkpoint is a cache.
    /// The checkpoint stored at exactly `seq` in `format`, checksum verified: `nil` when there is
    /// none; `.failure` with the reason when it is damaged. For `verify`, which must see damage
    /// that opening quietly skips.
    func checkpoint<R>(at seq: Int, format: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> Result<R, StoreError>? {
        let stmt = try connection.statement("SELECT checksum, data FROM checkpoints WHERE seq = ? AND format = ?")
        try stmt.bind([.int(seq), .int(format)])
        defer { stmt.reset() }
        guard try stmt.step() else { return nil }
        let stored = stmt.text(0)
        return stmt.withBytes(1) { raw -> Result<R, StoreError> in
            guard Checksum.string(of: raw) == stored else {
                return .failure(.badEncoding("checkpoint \(seq) does not match its checksum"))
            }
            do { return .success(try body(raw)) } catch {
                return .failure(.badEncoding("checkpoint \(seq) does not decode: \(error.localizedDescription)"))
            }
        }
    }

    /// The checkpoint stored at exactly `seq` in `format` as image bytes of its own, read with
    /// one copy and checksum verified: nil when there is none or its blob cannot be read;
    /// `.failure` when it does not match its checksum.
    func checkpointImage(at seq: Int, format: Int) throws -> Result<ImageBytes, StoreError>? {
        let stmt = try connection.statement("SELECT checksum FROM checkpoints WHERE seq = ? AND format = ?")
        try stmt.bind([.int(seq), .int(format)])
        defer { stmt.reset() }
        guard try stmt.step() else { return nil }
        let stored = stmt.text(0)
        guard let bytes = connection.readBlob(table: "checkpoints", column: "data", rowid: seq, into: ImageBytes.filled) else {
            return nil
        }
        guard Checksum.string(of: bytes.buffer) == stored else {
            return .failure(.badEncoding("checkpoint \(seq) does not match its checksum"))
        }
        return .success(bytes)
    }

    func newestCheckpoint<R>(atOrBefore seq: Int, format: Int,
                             _ body: (Int, UnsafeRawBufferPointer) -> R?) throws -> (seq: Int, value: R)? {
        let stmt = try connection.statement(
            "SELECT seq, checksum, data FROM checkpoints WHERE seq <= ? AND format = ? ORDER BY seq DESC")
        try stmt.bind([.int(seq), .int(format)])
        defer { stmt.reset() }
        while try stmt.step() {
            let at = stmt.int(0)
            let stored = stmt.text(1)
            let value = stmt.withBytes(2) { raw -> R? in
                Checksum.string(of: raw) == stored ? body(at, raw) : nil
            }
            if let value { return (at, value) }
        }
        return nil
    }

    /// Stores a checkpoint, replacing one at the same seq. Call inside `transaction(immediate: true)`.
    ///
    /// `weight` is the replay cost of the transactions since the previous checkpoint; retention
    /// keeps the checkpoints that save the most replay (see `CheckpointPolicy.thinned`).
    func insertCheckpoint(seq: Int, format: Int, weight: Int, data: [UInt8]) throws {
        let checksum = Checksum.string(of: data)
        try connection.statement(
            "INSERT OR REPLACE INTO checkpoints(seq, format, weight, checksum, data) VALUES (?, ?, ?, ?, ?)")
            .run(.int(seq), .int(format), .int(weight), .text(checksum), .blob(data))
    }

    /// Deletes the checkpoints not in `kept` and stores the weights `kept` gives the others.
    func retain(_ kept: [StoredCheckpoint], of all: [StoredCheckpoint]) throws {
        let keptWeights = Dictionary(kept.map { ($0.seq, $0.weight) }, uniquingKeysWith: { a, _ in a })
        for c in all {
            if let w = keptWeights[c.seq] {
                if w != c.weight {
                    try connection.statement("UPDATE checkpoints SET weight = ? WHERE seq = ?").run(.int(w), .int(c.seq))
                }
            } else {
                try connection.statement("DELETE FROM checkpoints WHERE seq = ?").run(.int(c.seq))
            }
        }
    }

    /// The size in bytes of the checkpoint at `seq`, 0 when there is none (without reading it).
    func checkpointSize(seq: Int) throws -> Int {
        try connection.scalarInt("SELECT length(data) FROM checkpoints WHERE seq = ?", .int(seq)) ?? 0
    }

    /// The newest checkpoint of `format` at or before `seq`, 0 when there is none.
    func latestCheckpointSeq(atOrBefore seq: Int, format: Int) throws -> Int {
        try connection.scalarInt("SELECT max(seq) FROM checkpoints WHERE seq <= ? AND format = ?",
                                 .int(seq), .int(format)) ?? 0
    }

    /// The oldest checkpoint of `format` after `seq`, 0 when there is none.
    func earliestCheckpointSeq(after seq: Int, format: Int) throws -> Int {
        try connection.scalarInt("SELECT min(seq) FROM checkpoints WHERE seq > ? AND format = ?",
                                 .int(seq), .int(format)) ?? 0
    }

    func dropCheckpoints() throws {
        try connection.execute("DELETE FROM checkpoints")
    }
}
