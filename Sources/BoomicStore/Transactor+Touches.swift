/// The index of keys → transactions (`TouchIndexing`): kept by every commit once it exists,
/// caught up from the log when it is behind, and read without decoding any body.
extension Transactor {
    /// The index's entries for each of `keys`, newest first: every transaction up to the head
    /// that touched it.
    ///
    /// When the stored index lacks rows (an older build committed them, or a command's large
    /// commit left them to its merge, `TouchIndexing.commitLimit`), records them first, unless
    /// another process holds the write lock: a question never waits for a writer. Rows
    /// still missing (that, or a library that cannot be written) are read in memory for this
    /// answer instead.
    public func touches(of keys: some Sequence<String>) throws -> [String: [Touch]] {
        guard let touchIndexing else { throw StoreError.badEncoding("this log keeps no index of what each transaction touched") }
        // An index past the head describes transactions deleted by hand: none of it is used.
        // Best effort, as a checkpoint: what it does not record is read below.
        if try touchIndexIsBehind(touchIndexing) { try? catchUpTouchesNow(touchIndexing) }
        let wanted = Set(keys)
        return try reader.withLock { r in
            try r.log.connection.transaction(immediate: false) {
                let head = try r.log.head()
                let stored = try r.log.touchesThrough(format: touchIndexing.format) ?? 0
                let through = stored > head ? 0 : stored
                var out: [String: [Touch]] = [:]
                // Rows the index does not hold yet, newest first, ahead of those it does.
                try r.log.forEachRow(where: "seq > ? AND seq <= ?", [.int(through), .int(head)], newestFirst: true) { row in
                    let t = try Self.decode(row.body, seq: row.seq, r.decoder)
                    for (key, info) in touchIndexing.touches(t) where wanted.contains(key) {
                        out[key, default: []].append(Touch(seq: row.seq, info: info))
                    }
                }
                guard through > 0 else { return out }
                for key in wanted { out[key, default: []].append(contentsOf: try r.log.touches(of: key, through: through)) }
                return out.filter { !$0.value.isEmpty }
            }
        }
    }

    /// The keys the transactions `after < seq <= through` touched, from the stored index; nil
    /// when the index does not hold all of them (behind, absent, of another format, or past the
    /// log), and the caller must find them another way. Never catches the index up: a question
    /// that can do without it does not write.
    public func touchedKeys(after: Int, through: Int) throws -> Set<String>? {
        guard let touchIndexing else { return nil }
        return try reader.withLock { r in
            try r.log.connection.transaction(immediate: false) {
                guard let stored = try r.log.touchesThrough(format: touchIndexing.format),
                      stored >= through, stored <= (try r.log.head()) else { return nil }
                return try r.log.touchedKeys(after: after, through: through)
            }
        }
    }

    /// Through which seq the stored index is complete; nil when there is none of this format.
    public func touchesIndexedThrough() throws -> Int? {
        guard let touchIndexing else { return nil }
        return try reader.withLock { r in try r.log.touchesThrough(format: touchIndexing.format) }
    }

    /// Whether a commit of this process left its rows to the next catch-up (`commitLimit`): the
    /// process that made it has `catchUpTouchIndex` run after it, as it has a merge.
    public var leftTouchesBehind: Bool { touchesLeftBehind.withLock { $0 } }

    /// Records the rows the index lacks, when it lacks any, unless another process holds the
    /// write lock (then the next catch-up does): what `boomic merge` does after a command whose
    /// commit left them (`leftTouchesBehind`). O(the rows missing); the first one on a library
    /// made before the index by seq builds that, O(the index) once.
    public func catchUpTouchIndex() throws {
        guard let touchIndexing, readOnlyBecause == nil else { return }
        // Cleared first: a commit that leaves rows while this runs sets it again.
        touchesLeftBehind.withLock { $0 = false }
        let lacksBySeq = try reader.withLock { r -> Bool in
            guard try r.log.hasTouchTables() else { return false }
            return try !r.log.hasTouchesBySeq()
        }
        let behind = try touchIndexIsBehind(touchIndexing)
        if lacksBySeq || behind { try catchUpTouchesNow(touchIndexing, creatingBySeq: lacksBySeq) }
    }

    /// Whether the stored index does not reach the head exactly (behind, absent, of another
    /// format, or past a log shortened by hand).
    private func touchIndexIsBehind(_ indexing: TouchIndexing<T>) throws -> Bool {
        try reader.withLock { r in
            try r.log.connection.transaction(immediate: false) {
                try r.log.touchesThrough(format: indexing.format) != r.log.head()
            }
        }
    }

    /// `catchUpTouches` without waiting for another writer.
    private func catchUpTouchesNow(_ indexing: TouchIndexing<T>, creatingBySeq: Bool = false) throws {
        guard readOnlyBecause == nil else { return }
        try writer.withLock { w in
            w.log.connection.setBusyTimeout(milliseconds: 0)
            defer { w.log.connection.setBusyTimeout(milliseconds: SQLiteConnection.defaultBusyTimeout) }
            if creatingBySeq { try w.log.connection.transaction(immediate: true) { try w.log.createTouchesBySeq() } }
            try catchUpTouches(w, indexing)
        }
    }

    /// Reads the rows after the index's last one and records them, a page of rows per SQLite
    /// transaction so other writers never wait long; creates (or, of another format, rebuilds)
    /// the index first.
    func catchUpTouches(_ w: WriteSide, _ indexing: TouchIndexing<T>) throws {
        let connection = w.log.connection
        var through = try connection.transaction(immediate: true) { () -> Int in
            if let through = try w.log.touchesThrough(format: indexing.format), through <= (try w.log.head()) { return through }
            try w.log.resetTouches(format: indexing.format)
            return 0
        }
        while true {
            let done = try connection.transaction(immediate: true) { () -> Bool in
                // Another process may have moved it meanwhile.
                guard let now = try w.log.touchesThrough(format: indexing.format) else { return true }
                through = now
                var last = through
                try w.log.forEachRow(where: "seq > ?", [.int(through)], limit: Self.touchPage) { row in
                    let t = try Self.decode(row.body, seq: row.seq, w.decoder)
                    try w.log.recordTouches(seq: row.seq, indexing.touches(t))
                    last = row.seq
                }
                through = last
                return last == now
            }
            if done { return }
        }
    }

    /// Rows indexed per SQLite transaction while catching up.
    static var touchPage: Int { 256 }

    /// Records a transaction being committed in the index, inside the commit's own SQLite
    /// transaction, when the index exists and holds everything before it; otherwise leaves it
    /// to the next catch-up. An empty log starts its index with its first commit. With
    /// `limited`, a transaction over the index's `commitLimit` is left to the catch-up too.
    func recordTouchesInCommit(_ w: WriteSide, seq: Int, _ t: T, limited: Bool = false) throws {
        guard let touchIndexing, readOnlyBecause == nil else { return }
        var through = try w.log.touchesThrough(format: touchIndexing.format)
        if through == nil, seq == 1, !(try w.log.hasTouchTables()) {
            try w.log.resetTouches(format: touchIndexing.format)
            through = 0
        }
        if let stored = through, stored >= seq {
            // Past the log: transactions deleted by hand. Start again; the next question catches up.
            try w.log.resetTouches(format: touchIndexing.format)
            through = 0
        }
        guard through == seq - 1 else {
            if limited, through != nil { touchesLeftBehind.withLock { $0 = true } }
            return
        }
        if limited, touchIndexing.commitLimit < .max, touchIndexing.size(t) > touchIndexing.commitLimit {
            touchesLeftBehind.withLock { $0 = true }
            return
        }
        try w.log.recordTouches(seq: seq, touchIndexing.touches(t))
    }
}
