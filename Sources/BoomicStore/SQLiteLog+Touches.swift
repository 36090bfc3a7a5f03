/// The `touches` index and the `derived` table that says through which seq it is complete
/// (storage.md, "The song → transactions index"). Both are caches: created when first needed,
/// ignored by builds that do not know them, and rebuilt from the log when missing or of
/// another format.
extension SQLiteLog {
    static let touchesName = "touches"

    /// Whether the file holds the index's tables.
    func hasTouchTables() throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'derived'") ?? 0 > 0
    }

    /// Creates the tables when absent. Call inside `transaction(immediate: true)`.
    func createTouchTables() throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS touches(key TEXT NOT NULL, seq INTEGER NOT NULL, info TEXT NOT NULL,
                                               PRIMARY KEY (key, seq)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS derived(name TEXT PRIMARY KEY, format INTEGER NOT NULL,
                                               through INTEGER NOT NULL);
            """)
        try createTouchesBySeq()
    }

    /// Whether the file holds `touches_by_seq`.
    func hasTouchesBySeq() throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'touches_by_seq'") ?? 0 > 0
    }

    /// The index by seq that finds the keys of a span of the log (`touchedKeys`) among its own
    /// rows rather than among every row: a library made before it gets it from its next merge
    /// (O(the index) once, 1 s at a million songs). Call inside `transaction(immediate: true)`.
    func createTouchesBySeq() throws {
        try connection.execute("CREATE INDEX IF NOT EXISTS touches_by_seq ON touches(seq)")
    }

    /// Through which seq the index holds every transaction, in `format`; nil when the tables are
    /// absent or the index is of another format (then nothing it holds may be used).
    func touchesThrough(format: Int) throws -> Int? {
        guard try hasTouchTables() else { return nil }
        let stmt = try connection.statement("SELECT format, through FROM derived WHERE name = ?")
        try stmt.bind([.text(Self.touchesName)])
        defer { stmt.reset() }
        guard try stmt.step(), stmt.int(0) == format else { return nil }
        return stmt.int(1)
    }

    /// Empties the index and records it as complete through nothing, in `format`.
    /// Call inside `transaction(immediate: true)`.
    func resetTouches(format: Int) throws {
        try createTouchTables()
        try connection.execute("DELETE FROM touches")
        try connection.statement("INSERT OR REPLACE INTO derived(name, format, through) VALUES (?, ?, 0)")
            .run(.text(Self.touchesName), .int(format))
    }

    /// Records the touches of the transaction at `seq` and moves `through` to it.
    /// Call inside `transaction(immediate: true)`, with `through` at `seq - 1`.
    func recordTouches(seq: Int, _ touches: [(key: String, info: String)]) throws {
        let insert = try connection.statement("INSERT OR REPLACE INTO touches(key, seq, info) VALUES (?, ?, ?)")
        for t in touches { try insert.run(.text(t.key), .int(seq), .text(t.info)) }
        try connection.statement("UPDATE derived SET through = ? WHERE name = ?").run(.int(seq), .text(Self.touchesName))
    }

    /// The keys the index names for the transactions `after < seq <= through`: the span's rows
    /// of `touches_by_seq` when the file has it (the key is in every entry of an index of a
    /// table without rowid), else a scan of every row.
    func touchedKeys(after: Int, through: Int) throws -> Set<String> {
        let stmt = try connection.statement("SELECT key FROM touches WHERE seq > ? AND seq <= ?")
        try stmt.bind([.int(after), .int(through)])
        defer { stmt.reset() }
        var out: Set<String> = []
        while try stmt.step() { out.insert(stmt.text(0)) }
        return out
    }

    /// The index's entries for `key` at or before `through`, newest first.
    func touches(of key: String, through: Int) throws -> [Touch] {
        let stmt = try connection.statement("SELECT seq, info FROM touches WHERE key = ? AND seq <= ? ORDER BY seq DESC")
        try stmt.bind([.text(key), .int(through)])
        defer { stmt.reset() }
        var out: [Touch] = []
        while try stmt.step() { out.append(Touch(seq: stmt.int(0), info: stmt.text(1))) }
        return out
    }
}

extension SQLiteLog {
    /// Every row of the index at or before `through`.
    func allTouches(through: Int) throws -> Set<IndexedTouch> {
        let stmt = try connection.statement("SELECT key, seq, info FROM touches WHERE seq <= ?")
        try stmt.bind([.int(through)])
        defer { stmt.reset() }
        var out = Set<IndexedTouch>()
        while try stmt.step() { out.insert(IndexedTouch(key: stmt.text(0), seq: stmt.int(1), info: stmt.text(2))) }
        return out
    }
}
