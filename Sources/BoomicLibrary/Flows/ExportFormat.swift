import BoomicCore
import BoomicStore
import Foundation

/// The export format: the whole log as JSON lines, one transaction per line, then an end line.
///
/// `boomic export` writes it and `boomic import-json` reads it back into a new library with every
/// transaction as it was, so it is the escape hatch from any damage to `library.sqlite`. The end
/// line (`{"end":{"transactions":N}}`) tells a whole export from one cut at a line boundary; it
/// also carries the library's remembered music folders (`"folders":[…]`, absent when there are
/// none), which live beside the log rather than in it, so that a library rebuilt from its export
/// rescans as the original did. A reader that knows no `folders` ignores it.
public enum ExportFormat {
    public struct Line: Codable, Sendable {
        public var seq: Int
        public var transaction: Transaction

        public init(seq: Int, transaction: Transaction) {
            self.seq = seq
            self.transaction = transaction
        }
    }

    /// The last line: without it, an export cut at a line boundary would read as a shorter history.
    struct End: Codable {
        struct Count: Codable {
            var transactions: Int
            var folders: [String]?
        }
        var end: Count
    }

    /// What an export holds: its transactions, and the music folders the library remembered.
    public struct Contents: Sendable {
        public var transactions: [Transaction]
        public var folders: [String]
    }

    /// An encoder for lines: sorted keys, as the log stores bodies, so exports diff cleanly.
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// Calls `emit` with each line's bytes (newline included) for `entries`, then the end line
    /// naming `folders`; returns how many transactions were written.
    public static func write(_ entries: Entries, folders: [String] = [],
                             emit: @escaping (Data) throws -> Void) throws -> Int {
        let enc = encoder()
        var n = 0
        try entries { e in
            var data = try quickLine(seq: e.seq, e.transaction) ?? enc.encode(Line(seq: e.seq, transaction: e.transaction))
            data.append(0x0A)
            try emit(data)
            n += 1
        }
        try emit(endLine(count: n, folders: folders))
        return n
    }

    /// Calls `emit` with the bytes of each line, in parts, for each stored body `bodies` gives
    /// (its seq and the log's JSON, written as it lies: the log stores a body as `encoder()`
    /// spells it), then the end line naming `folders`; returns how many transactions were
    /// written. What `export` of a sound log writes: the same lines as `write`, without decoding,
    /// encoding or copying a body again (a 50,000-song import is 32 MB).
    public static func write(bodies: Bodies, folders: [String] = [],
                             emit: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        var n = 0
        try bodies { seq, json in
            try Array(#"{"seq":\#(seq),"transaction":"#.utf8).withUnsafeBytes(emit)
            try json.withUnsafeBytes(emit)
            try [UInt8(ascii: "}"), 0x0A].withUnsafeBytes(emit)
            n += 1
        }
        try endLine(count: n, folders: folders).withUnsafeBytes(emit)
        return n
    }

    static func endLine(count: Int, folders: [String]) throws -> Data {
        var end = try encoder().encode(End(end: .init(transactions: count, folders: folders.isEmpty ? nil : folders)))
        end.append(0x0A)
        return end
    }

    /// Calls its argument with each stored body to export (its seq and JSON), in order.
    public typealias Bodies = ((Int, Data) throws -> Void) throws -> Void

    /// A line as `encoder()` writes it (`{"seq":N,"transaction":BODY}`, the body as the log's own
    /// codec writes it, byte for byte `JSONEncoder`'s); nil when the body is one it leaves to
    /// `JSONEncoder`. An export of 10,000 transactions spent most of its time in Codable.
    static func quickLine(seq: Int, _ t: Transaction) -> Data? {
        guard let body = t.encodedQuickly() else { return nil }
        var line = Data(#"{"seq":\#(seq),"transaction":"#.utf8)
        line.append(body)
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// A line in the spelling `write` gives it, read by the log's quick decoder; nil for any other
    /// spelling or anything the quick decoder leaves to `JSONDecoder`, which then reads the line
    /// (and names what is wrong with it). `import-json` of a million-song export spent most of
    /// its time in Codable.
    static func quickLine(_ raw: some Collection<UInt8>) -> Line? {
        let bytes = Array(raw)
        let head = Array(#"{"seq":"#.utf8), middle = Array(#","transaction":"#.utf8)
        guard bytes.count > head.count + middle.count + 2, bytes.starts(with: head), bytes.last == UInt8(ascii: "}") else { return nil }
        var i = head.count, seq = 0
        while i < bytes.count, i - head.count < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
            seq = seq * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            i += 1
        }
        // JSON's grammar: digits, no leading zero (beyond 18 digits: JSONDecoder's business).
        let digits = i - head.count
        guard digits > 0, digits < 18, digits == 1 || bytes[head.count] != UInt8(ascii: "0"),
              bytes[i...].starts(with: middle) else { return nil }
        let body = bytes[(i + middle.count)..<(bytes.count - 1)]
        guard let t = body.withUnsafeBytes({ Transaction.quickly(from: $0) }) else { return nil }
        return Line(seq: seq, transaction: t)
    }

    /// Calls its argument with each transaction to export, in order.
    public typealias Entries = ((LogEntry<Transaction>) throws -> Void) throws -> Void

    /// The transactions of an export, checked whole before anything is imported: numbered from 1
    /// without gaps, no id twice, and an end line that agrees. `name` is how errors name the file.
    public static func read(_ data: Data, name: String) throws -> Contents {
        let dec = JSONDecoder()
        var lines: [Line] = []
        var end: (line: Int, count: Int, folders: [String])?
        for (i, raw) in data.split(separator: 0x0A).enumerated() where !raw.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            if let e = end {
                throw LibraryError("line \(i + 1) of \(name) follows the end line (line \(e.line)): the export was edited; nothing was imported")
            }
            if let line = quickLine(raw) { lines.append(line); continue }
            if let e = try? dec.decode(End.self, from: Data(raw)) { end = (i + 1, e.end.transactions, e.end.folders ?? []); continue }
            do { lines.append(try dec.decode(Line.self, from: Data(raw))) } catch {
                throw LibraryError("line \(i + 1) of \(name) is not an exported transaction (\(error.localizedDescription)); nothing was imported")
            }
        }
        for (i, l) in lines.enumerated() where l.seq != i + 1 {
            throw LibraryError("line \(i + 1) of \(name) holds transaction \(l.seq), expected \(i + 1): the export is incomplete or reordered; nothing was imported")
        }
        // The log refuses a repeated id, but only when it gets there: check first, so that an
        // edited export is refused whole instead of half imported.
        var ids = Set<UUID>()
        for (i, l) in lines.enumerated() where !ids.insert(l.transaction.id).inserted {
            throw LibraryError("line \(i + 1) of \(name) repeats transaction \(l.transaction.id.uuidString.lowercased()): the export was edited; nothing was imported")
        }
        guard let end else {
            throw LibraryError("\(name) has no end line: the export was cut short (or made before boomic 0.2; if it is whole, add the line {\"end\":{\"transactions\":\(lines.count)}}); nothing was imported")
        }
        guard end.count == lines.count else {
            throw LibraryError("\(name) holds \(lines.count) transactions but its end line says \(end.count): the export was edited; nothing was imported")
        }
        // Remembered folders are walked by every rescan: only absolute paths, as `import` keeps.
        if let odd = end.folders.first(where: { !$0.hasPrefix("/") || $0.contains("\u{0}") }) {
            throw LibraryError("the end line of \(name) names a music folder that is not an absolute path (\(odd.debugDescription)): the export was edited; nothing was imported")
        }
        return Contents(transactions: lines.map(\.transaction), folders: end.folders)
    }

    /// What can be saved of a damaged log, renumbered from 1, and what is lost.
    ///
    /// Starting from a checkpoint, the first transaction is a `salvage` one that adds what the
    /// checkpoint holds, so that `import-json` rebuilds exactly the state it recorded; the
    /// transactions after it keep their ids, so undo still finds what they took back.
    public struct Salvage {
        public var entries: Entries
        /// A sentence saying what was kept and what is lost, by sequence number.
        public var report: String
    }

    public static func salvage(at location: String, client: LibrarySession.Client) throws -> Salvage {
        let path = location + "/" + LibrarySession.logName
        guard FileManager.default.fileExists(atPath: path) else {
            throw LibraryError("no library at \(location); nothing to salvage")
        }
        let s = try Transactor<Transaction, DataBasis>.salvage(path: path, codec: BasisCodec.codec)
        var out: [Transaction] = []
        if let (seq, basis) = s.checkpoint {
            out.append(Transaction(
                id: UUID(), parent: nil, timestamp: Date().timeIntervalSince1970, kind: Transaction.Kind(rawValue: "salvage"),
                label: "salvage: the library after transaction \(seq) (\(basis.songs.count) songs), from its checkpoint",
                provenance: .init(command: client.command, message: nil, version: client.version),
                assertions: DataBasis().diff(to: basis)))
        }
        out += s.entries.map(\.transaction)
        let report: String
        if !s.losesTransactions {
            report = "salvage: nothing is lost; this is the whole log"
        } else if out.isEmpty {
            report = "salvage: nothing could be saved (no readable transaction before the first lost one, and no intact checkpoint after it); lost: \(s.lostDescription)"
        } else {
            let kept = s.checkpoint.map { "the state after transaction \($0.seq) (from its checkpoint) and " } ?? ""
            let last = s.entries.last?.seq ?? s.checkpoint?.seq ?? 0
            report = "salvage: kept \(kept)\(s.entries.count) transaction\(s.entries.count == 1 ? "" : "s") up to \(last); "
                + "lost: \(s.lostDescription)"
        }
        let all = out
        return Salvage(entries: { body in
            for (i, t) in all.enumerated() { try body(LogEntry(seq: i + 1, transaction: t)) }
        }, report: report)
    }
}
