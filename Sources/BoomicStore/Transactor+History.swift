import Dispatch
import Foundation
import Synchronization
/// Reading the log: history listings, single entries, REF resolution, and export.
///
/// All of it runs on the read connection, so it never waits for a commit in progress.
extension Transactor {
    /// Transactions with `from <= seq <= through`, oldest first unless `newestFirst`, at most `limit`.
    ///
    /// `history -n 20` is `entries(limit: 20, newestFirst: true)`.
    public func entries(from: Int = 1, through: Int = .max, limit: Int? = nil,
                        newestFirst: Bool = false) throws -> [LogEntry<T>] {
        let rows = try reader.withLock { r in try r.log.rows(from: from, through: through, limit: limit, newestFirst: newestFirst) }
        return try Self.decodeOnEveryCore(rows)
    }

    /// The rows' transactions, in their order, decoded in as many chunks as there are cores when
    /// there are many rows: decoding a span of the log (`diff`, `--as-of`, rollback, undo) is
    /// mostly JSON, and the rows need nothing of each other or of the connection. A damaged row
    /// throws as it would alone: the first in the rows' order.
    static func decodeOnEveryCore(_ rows: [LogRow]) throws -> [LogEntry<T>] {
        let chunks = rows.count < 64 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, rows.count / 32)
        @Sendable func decode(_ part: ArraySlice<LogRow>) throws -> [LogEntry<T>] {
            let decoder = JSONDecoder()
            return try part.map { LogEntry(seq: $0.seq, transaction: try Self.decode($0.body, seq: $0.seq, decoder)) }
        }
        guard chunks > 1 else { return try decode(rows[...]) }
        let decoded = Mutex([Result<[LogEntry<T>], any Error>?](repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { k in
            let part = rows[(rows.count * k / chunks)..<(rows.count * (k + 1) / chunks)]
            let result = Result { try decode(part) }
            decoded.withLock { $0[k] = result }
        }
        return try decoded.withLock { $0 }.flatMap { try $0!.get() }
    }

    /// Like `entries` but without decoding bodies: what a history listing needs, at a fraction of the cost.
    public func summaries(from: Int = 1, through: Int = .max, limit: Int? = nil,
                          newestFirst: Bool = false, excludingKind: String? = nil) throws -> [LogSummary] {
        try reader.withLock { r in
            try r.log.summaries(from: from, through: through, limit: limit, newestFirst: newestFirst,
                                excludingKind: excludingKind).map {
                LogSummary(seq: $0.seq, id: $0.id, time: $0.time, kind: $0.kind, label: $0.label)
            }
        }
    }

    /// The transaction with sequence number `seq`.
    /// A transaction's body decoded as `V` instead of `T`: a few fields of a big body without
    /// building its assertions (the undo stack needs only what undo and redo took back).
    public func body<V: Decodable & Sendable>(seq: Int, as type: V.Type) throws -> V {
        try reader.withLock { r in
            guard let row = try r.log.rows(from: seq, through: seq).first else {
                throw StoreError.noSuchSeq(seq, head: try r.log.head())
            }
            do { return try r.decoder.decode(V.self, from: row.body) } catch {
                throw StoreError.undecodable(seq: seq, reason: Self.describe(error))
            }
        }
    }

    public func entry(seq: Int) throws -> LogEntry<T> {
        guard let entry = try entries(from: seq, through: seq).first else {
            throw StoreError.noSuchSeq(seq, head: try logHead())
        }
        return entry
    }

    /// The transaction whose id starts with `prefix` (case-insensitive; dashes as in the id).
    ///
    /// - Returns: nil when no id starts with it.
    /// - Throws: `StoreError.ambiguousIDPrefix` when several do, `.invalidIDPrefix` when it is not hex.
    public func entry(idPrefix prefix: String) throws -> LogEntry<T>? {
        let prefix = prefix.lowercased()
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw StoreError.invalidIDPrefix(prefix)
        }
        return try reader.withLock { r in
            let rows = try r.log.rows(idPrefix: prefix, limit: 5)
            if rows.count > 1 { throw StoreError.ambiguousIDPrefix(prefix, matches: rows.map(\.id)) }
            return try rows.first.map {
                LogEntry(seq: $0.seq, transaction: try Self.decode($0.body, seq: $0.seq, r.decoder))
            }
        }
    }

    /// The last seq whose time is at or before `time` (seconds since 1970); 0 when none is.
    ///
    /// For date REFs: `--as-of 2026-11-01` is the state after the last transaction made by then.
    public func seq(atOrBefore time: Double) throws -> Int {
        try reader.withLock { try $0.log.seq(atOrBefore: time) }
    }

    /// The log's head as stored now, which may be past `head` if other processes committed.
    public func logHead() throws -> Int {
        try reader.withLock { try $0.log.head() }
    }

    /// Calls `body` with every transaction with `from <= seq <= through`, oldest first: for
    /// export and verify.
    ///
    /// Reads pages of `pageSize` rows and calls `body` outside the store's locks, so memory stays
    /// flat however long the log and `body` may use this transactor. Other processes may commit
    /// between pages: a caller that compares with a state it holds (verify, with the basis it
    /// opened) passes that state's head as `through`, and since the log only grows, the rows it
    /// reads are one consistent snapshot. Throws at the first damaged or unreadable row, after
    /// `body` has seen every row before it.
    /// Calls `body` with the seq and the stored JSON body of every transaction with
    /// `from <= seq <= through`, oldest first, each checked against its checksum but not decoded:
    /// what `export` writes, the log's own bytes (decoding and encoding each transaction again
    /// were most of exporting a 50,000-song import). Pages as `forEachEntry` does.
    public func forEachBody(from: Int = 1, through: Int = .max, pageSize: Int = 256,
                            _ body: (_ seq: Int, _ json: Data) throws -> Void) throws {
        var next = from
        while next <= through {
            let page = try reader.withLock { r in try r.log.rows(from: next, through: through, limit: max(1, pageSize)) }
            for row in page { try body(row.seq, row.body) }
            guard let last = page.last else { return }
            next = last.seq + 1
        }
    }

    public func forEachEntry(from: Int = 1, through: Int = .max, pageSize: Int = 256,
                             _ body: (LogEntry<T>) throws -> Void) throws {
        var next = from
        while next <= through {
            let page = try entries(from: next, through: through, limit: max(1, pageSize))
            for entry in page { try body(entry) }
            guard let last = page.last else { return }
            next = last.seq + 1
        }
    }
}
