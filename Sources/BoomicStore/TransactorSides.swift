import Foundation

/// A transaction after the newest checkpoint, remembered to decide when the next one is due.
struct TailItem: Sendable {
    var seq: Int
    var weight: Int
}

/// The write connection and what the writer remembers between commits.
///
/// Not `Sendable`: it lives in the `Transactor`'s writer `Mutex`, which hands it to one thread at a time.
final class WriteSide {
    let log: SQLiteLog
    let encoder: JSONEncoder
    let decoder = JSONDecoder()
    /// The newest checkpoint in our format we know of, 0 for none.
    var lastCheckpoint: Int
    /// The transactions after `lastCheckpoint`, with their weights.
    var tail: [TailItem]

    init(log: SQLiteLog, lastCheckpoint: Int, tail: [TailItem]) {
        self.log = log
        self.lastCheckpoint = lastCheckpoint
        self.tail = tail
        encoder = JSONEncoder()
        // DESIGN §3: sorted keys, so the log reads well, diffs cleanly and encodes deterministically.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }
}

/// The read connection used for history and time travel, so they never wait for a commit.
///
/// Not `Sendable`: it lives in the `Transactor`'s reader `Mutex`.
final class ReadSide {
    let log: SQLiteLog
    let decoder = JSONDecoder()

    init(log: SQLiteLog) { self.log = log }
}
