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

    /// The oldest checkpoint after the state and before the later one, 0 when none was weighed.
    public var nextCheckpoint = 0
    /// That checkpoint's bytes weighed as log bytes, plus the bytes of the rows after the state
    /// through it, counted only until they pass the cheaper other side; `Int.max` when no
    /// checkpoint lies between or it was not asked.
    public var fromNextCheckpoint = Int.max

    /// Taking back the rows from the later state is no more to read than the checkpoint and its tail.
    public var isCheaperFromLater: Bool { fromLater <= fromCheckpoint }

    /// Where an earlier state is least to read from.
    public enum Side: Equatable, Sendable {
        /// The checkpoint at or before it, and the rows after that through it.
        case checkpoint
        /// The later state, with the rows after it taken back.
        case later
        /// The checkpoint after it, with the rows between taken back.
        case nextCheckpoint(Int)
    }

    public var cheapest: Side {
        if nextCheckpoint > 0, fromNextCheckpoint < min(fromCheckpoint, fromLater) { return .nextCheckpoint(nextCheckpoint) }
        return isCheaperFromLater ? .later : .checkpoint
    }
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
    ///   - weighingNextCheckpoint: also weigh the oldest checkpoint after `seq` (before `later`)
    ///     with the rows between taken back: in a long history the state may be far from both
    ///     the checkpoint before it and the later state, but near one after it.
    public func stateCost(at seq: Int, from later: Int, checkpointBytesPerLogByte ratio: Int,
                          checkpointSideExtra: Int = 0, weighingNextCheckpoint: Bool = false) throws -> StateCost {
        try reader.withLock { r in
            try r.log.connection.transaction(immediate: false) {
                let head = try r.log.head()
                guard seq >= 0, seq <= later, later <= head else { throw StoreError.noSuchSeq(max(seq, later), head: head) }
                let checkpoint = try codec.map { try r.log.latestCheckpointSeq(atOrBefore: seq, format: $0.format) } ?? 0
                let stored = checkpoint > 0 ? try r.log.checkpointSize(seq: checkpoint) : 0
                let fromCheckpoint = stored / max(1, ratio) + (try r.log.bodyBytes(after: checkpoint, through: seq))
                    &+ max(0, checkpointSideExtra)
                let fromLater = try r.log.bodyBytes(after: seq, through: later, limit: fromCheckpoint)
                var cost = StateCost(checkpoint: checkpoint, fromCheckpoint: fromCheckpoint, fromLater: fromLater)
                if weighingNextCheckpoint, let codec {
                    let next = try r.log.earliestCheckpointSeq(after: seq, format: codec.format)
                    let limit = min(fromCheckpoint, fromLater)
                    let stored = next > 0 && next < later ? try r.log.checkpointSize(seq: next) / max(1, ratio) : .max
                    if stored < limit {
                        cost.nextCheckpoint = next
                        cost.fromNextCheckpoint = stored &+ (try r.log.bodyBytes(after: seq, through: next, limit: limit - stored))
                    }
                }
                return cost
            }
        }
    }
}
