/// What an earlier state costs to read each way, so that time travel reads the smaller side.
///
/// An earlier state can be rebuilt from the newest checkpoint at or before it and the rows after
/// that checkpoint (`basis(at:)`), or taken back from a later state that is at hand through the
/// rows between the two (the caller's inverse of those rows; the Transactor knows no inverse).
/// Which is less to read depends on where the checkpoints lie and how big the rows are, which
/// only the file says: a state 50 transactions back from the head is 50 small rows away, one
/// just after a checkpoint is that checkpoint away, and a big import in between tips the scale.
public struct StateCost: Equatable, Sendable {
    /// The newest checkpoint at or before the state (0: none, the replay starts from nothing).
    public var checkpoint: Int
    /// The checkpoint's bytes weighed as log bytes (divided by the caller's ratio), plus the
    /// bytes of the rows after it through the state.
    public var fromCheckpoint: Int
    /// The bytes of the rows after the state through the later one, counted only until they
    /// pass `fromCheckpoint` (then this side has lost, by how much does not matter).
    public var fromLater: Int

    /// Taking back the rows from the later state is no more to read than the checkpoint and its tail.
    public var isCheaperFromLater: Bool { fromLater <= fromCheckpoint }
}

extension Transactor {
    /// What the state after `seq` costs to read from the checkpoint side and from the state
    /// after `later` (> `seq`), in bytes of the log, from the sizes SQLite keeps in each row's
    /// header (no body is read).
    ///
    /// - Parameters:
    ///   - checkpointBytesPerLogByte: how many bytes of a checkpoint cost as much to read as one
    ///     byte of the log (a checkpoint is read in place, a row decoded from JSON).
    ///   - checkpointSideExtra: log bytes' worth of work the caller does on the checkpoint side
    ///     only (a rollback compares the touched songs of both states, which taking back does not).
    public func stateCost(at seq: Int, from later: Int, checkpointBytesPerLogByte ratio: Int,
                          checkpointSideExtra: Int = 0) throws -> StateCost {
        try reader.withLock { r in
            try r.log.connection.transaction(immediate: false) {
                let head = try r.log.head()
                guard seq >= 0, seq <= later, later <= head else { throw StoreError.noSuchSeq(max(seq, later), head: head) }
                let checkpoint = try codec.map { try r.log.latestCheckpointSeq(atOrBefore: seq, format: $0.format) } ?? 0
                let stored = checkpoint > 0 ? try r.log.checkpointSize(seq: checkpoint) : 0
                let fromCheckpoint = stored / max(1, ratio) + (try r.log.bodyBytes(after: checkpoint, through: seq))
                    &+ max(0, checkpointSideExtra)
                let fromLater = try r.log.bodyBytes(after: seq, through: later, limit: fromCheckpoint)
                return StateCost(checkpoint: checkpoint, fromCheckpoint: fromCheckpoint, fromLater: fromLater)
            }
        }
    }
}
