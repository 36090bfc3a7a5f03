/// What `Transactor.examine` found in a log file, without trusting it: for `verify`, which must
/// report damage that opening refuses, and for the salvage, which works around it.
public struct LogExamination: Sendable, Equatable {
    /// The seqs of the rows that could be found (through the table or its id index).
    public var present: [Int]
    /// The seq of the newest checkpoint, 0 when there is none.
    public var newestCheckpoint: Int
    /// The seqs from 1 to the end (the highest row or checkpoint) that no row has.
    public var missing: [Int]
    /// Rows that are there but unreadable: their body fails its checksum, does not decode, or
    /// sits on a damaged page. Ascending by seq.
    public var damaged: [Damaged]
    /// What `PRAGMA integrity_check` says, when it does not say "ok": damaged pages or indexes.
    public var integrity: [String]
    /// Set when the file is shorter than its header says: transactions past `end` may be lost
    /// too, and nothing in the file says how many.
    public var cutShort: CutShort?
    /// The highest seq the surviving pages of the log table name (`LogFilePages`), which may be
    /// past every row that can still be read; 0 when unknown.
    public var highestNamed = 0

    /// A file shorter than its header says.
    public struct CutShort: Sendable, Equatable {
        /// The whole pages the file holds.
        public var pages: Int
        /// The pages its header says it has.
        public var of: Int

        /// "the file is cut short to 1 of its 33 pages".
        public var description: String { "the file is cut short to \(pages) of its \(of) pages" }
    }

    public struct Damaged: Sendable, Equatable {
        public var seq: Int
        public var reason: String
    }

    /// The last seq the log should reach: its highest row, or its newest checkpoint when that is
    /// past it (rows lost at the end).
    public var end: Int { max(present.last ?? 0, newestCheckpoint, highestNamed) }

    /// The seqs whose transaction cannot be read, ascending.
    public var holes: [Int] { (missing + damaged.map(\.seq)).sorted() }

    /// Whether any transaction is lost: a hole, or a file cut short (past `end`, unknown).
    public var losesTransactions: Bool { !holes.isEmpty || cutShort != nil }

    public var isIntact: Bool { missing.isEmpty && damaged.isEmpty && integrity.isEmpty && cutShort == nil }

    /// What is lost, for a message: "57–100", or for a file cut short "57–121 and any after 121,
    /// as the file is cut short to 16 of its 33 pages and no longer says how many".
    public var lostDescription: String { describeLost(holes, end: end, cutShort: cutShort) }
}

/// `seqs` lost, and when the file is `cutShort`, whatever followed `end` as well.
public func describeLost(_ seqs: [Int], end: Int, cutShort: LogExamination.CutShort?) -> String {
    guard let cutShort else { return describeSeqs(seqs) }
    let after = end == 0 ? "every transaction" : "any after \(end)"
    return (seqs.isEmpty ? after : describeSeqs(seqs) + " and " + after)
        + ", as \(cutShort.description) and no longer says how many"
}

/// What can be saved of a damaged log: a starting state and the readable transactions after it.
public struct Salvage<T: LoggedTransaction, Basis: Sendable>: Sendable {
    /// The checkpoint the salvage starts from, when a hole forced it to: the seq and the state
    /// after it. Nil when it starts from the empty library.
    public var checkpoint: (seq: Int, basis: Basis)?
    /// The transactions kept after the start, in order, with their seqs in the damaged log.
    public var entries: [LogEntry<T>]
    /// The seqs whose transaction is gone from the salvaged history, ascending: the holes, and
    /// everything after the hole where the salvage had to stop.
    public var lost: [Int]
    /// The seqs before the checkpoint that are readable but are kept only as the state they
    /// led to (the checkpoint), ascending; empty without a checkpoint.
    public var folded: [Int]
    /// The last seq the damaged log is known to reach (`LogExamination.end`).
    public var end: Int
    /// Set when the file is cut short: transactions after `end` are lost as well.
    public var cutShort: LogExamination.CutShort?

    /// Whether anything of the log is left out.
    public var losesTransactions: Bool { !lost.isEmpty || cutShort != nil }

    /// What is lost, for a message (see `describeLost`).
    public var lostDescription: String { describeLost(lost, end: end, cutShort: cutShort) }
}

/// Ascending integers written as ranges: `[3, 5, 6, 7, 9]` is "3, 5–7, 9".
public func describeSeqs(_ seqs: [Int]) -> String {
    var parts: [String] = []
    var i = 0
    while i < seqs.count {
        var j = i
        while j + 1 < seqs.count, seqs[j + 1] == seqs[j] + 1 { j += 1 }
        parts.append(i == j ? "\(seqs[i])" : "\(seqs[i])–\(seqs[j])")
        i = j + 1
    }
    return parts.joined(separator: ", ")
}
