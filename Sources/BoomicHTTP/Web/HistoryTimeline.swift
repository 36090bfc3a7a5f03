import BoomicCore
import BoomicLibrary
import Foundation
import Synchronization

/// The history page's timeline: a page of transactions, newest first, each with its kind,
/// label, who made it and what it touched.
///
/// A page reads only its own rows: the log's summary columns (no body) for the page, then one
/// body per row for its provenance and counts (`Facts`), decoded without building songs. A
/// transaction never changes once logged, so its facts are kept by id and a page scrolled
/// again costs only the summaries.
enum HistoryTimeline {
    /// One row of the timeline.
    struct Item: Encodable, Sendable {
        var seq: Int
        /// The first 8 hex digits of the id, as `boomic history` shows them.
        var id: String
        var time: Double
        var kind: String
        var label: String
        var user: String?
        var client: String?
        var message: String?
        /// Songs added, changed or removed; fields changed on them; lists, profiles and
        /// album or artist annotations changed.
        var songs: Int
        var fields: Int
        var others: Int
    }

    struct Page: Encodable, Sendable {
        /// The log's last transaction as this page read it.
        var head: Int
        var items: [Item]
        /// `before` for the next page; nil at the first transaction.
        var next: Int?
    }

    /// At most `limit` transactions before `before` (all when nil), newest first; plays only
    /// when `plays` (as `boomic history --all`).
    static func page(_ lib: LibrarySession, before: Int?, limit: Int, plays: Bool) throws -> Page {
        let head = try lib.transactor.logHead()
        let through = min(head, (before ?? Int.max) - 1)
        let rows = through < 1 ? [] : try lib.transactor.summaries(from: 1, through: through, limit: limit, newestFirst: true,
                                                                     excludingKind: plays ? nil : Transaction.Kind.play.rawValue)
        let items = try rows.map { row in
            let facts = try self.facts(row.id, seq: row.seq, lib)
            return Item(seq: row.seq, id: String(row.id.prefix(8)), time: row.time, kind: row.kind, label: row.label,
                        user: facts.user, client: facts.client, message: facts.message,
                        songs: facts.songs, fields: facts.fields, others: facts.others)
        }
        let last = rows.last?.seq ?? 1
        return Page(head: head, items: items, next: rows.count == limit && last > 1 ? last : nil)
    }

    /// Who made a transaction and what it touched, read from its body without building its
    /// songs: an import's body names every field of every song, and a timeline needs counts.
    struct Facts: Decodable, Sendable {
        var user: String?
        var client: String?
        var message: String?
        var songs = 0
        var fields = 0
        var others = 0

        private enum TransactionKey: String, CodingKey { case provenance, assertions }
        private enum ProvenanceKey: String, CodingKey { case user, client, message }
        private enum AssertionKey: String, CodingKey { case add, update, delete }
        private enum UpdateKey: String, CodingKey { case fields }
        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let t = try decoder.container(keyedBy: TransactionKey.self)
            if t.contains(.provenance) {
                let p = try t.nestedContainer(keyedBy: ProvenanceKey.self, forKey: .provenance)
                user = try p.decodeIfPresent(String.self, forKey: .user)
                client = try p.decodeIfPresent(String.self, forKey: .client)
                message = try p.decodeIfPresent(String.self, forKey: .message)
            }
            var assertions = try t.nestedUnkeyedContainer(forKey: .assertions)
            while !assertions.isAtEnd {
                let a = try assertions.nestedContainer(keyedBy: AssertionKey.self)
                if a.contains(.update) {
                    songs += 1
                    let changed = try a.nestedContainer(keyedBy: UpdateKey.self, forKey: .update)
                        .nestedContainer(keyedBy: AnyKey.self, forKey: .fields).allKeys
                    fields += changed.count { $0.stringValue != SongField.fileValues.name }
                } else if a.contains(.add) || a.contains(.delete) {
                    songs += 1
                } else {
                    others += 1
                }
            }
        }
    }

    /// Facts by transaction id (ids are unique across libraries, so one cache serves any
    /// front); emptied when it reaches `cacheLimit`.
    private static let cache = Mutex<[String: Facts]>([:])
    static let cacheLimit = 20_000

    static func facts(_ id: String, seq: Int, _ lib: LibrarySession) throws -> Facts {
        if let known = cache.withLock({ $0[id] }) { return known }
        let facts = try lib.transactor.body(seq: seq, as: Facts.self)
        cache.withLock { c in
            if c.count >= cacheLimit { c.removeAll(keepingCapacity: true) }
            c[id] = facts
        }
        return facts
    }
}
