import Foundation

/// Rebuilding a state from the log: the newest usable checkpoint, then the tail after it.
extension Transactor {
    /// The result of a replay: the state after `head`, and the tail replayed after `checkpoint`.
    struct Replayed: Sendable {
        var head: Int
        var basis: Basis
        /// The checkpoint the replay started from, 0 when it started from the initial basis.
        var checkpoint: Int
        var tail: [TailItem]
    }

    /// The state after `target` (the log's head when nil), in one read transaction so the
    /// checkpoint and the rows come from the same snapshot of the file.
    ///
    /// - Parameters:
    ///   - flatten: when given and the tail is longer than one, the tail is flattened and applied once.
    ///   - codec: when nil, or when no checkpoint decodes, the replay starts from `initial`.
    ///   - known: a state already in memory; used instead of a checkpoint when it is closer.
    static func replay(_ r: ReadSide, to target: Int?, initial: Basis,
                       apply: @Sendable (T, Basis) -> Basis, flatten: (@Sendable ([T]) -> T)?,
                       codec: CheckpointCodec<Basis>?, policy: CheckpointPolicy<T>,
                       known: Snapshot? = nil) throws -> Replayed {
        try r.log.connection.transaction(immediate: false) {
            let head = try r.log.head()
            let target = target ?? head
            guard target >= 0, target <= head else { throw StoreError.noSuchSeq(target, head: head) }

            var start = Snapshot(head: 0, basis: initial)
            var checkpoint = 0
            if let codec, let found = try r.log.newestCheckpoint(atOrBefore: target, format: codec.format, {
                // A checkpoint is a cache: one that does not decode is skipped, and an older one tried.
                _, bytes in try? codec.decode(bytes)
            }) {
                start = Snapshot(head: found.seq, basis: found.value)
                checkpoint = found.seq
            }
            if let known, known.head <= target, known.head > start.head { start = known }

            var transactions: [T] = []
            var tail: [TailItem] = []
            try r.log.forEachRow(where: "seq > ? AND seq <= ?", [.int(start.head), .int(target)]) { row in
                let t = try decode(row.body, seq: row.seq, r.decoder)
                tail.append(TailItem(seq: row.seq, weight: policy.weight(t)))
                transactions.append(t)
            }
            var basis = start.basis
            if let flatten, transactions.count > 1 {
                basis = apply(flatten(transactions), basis)
            } else {
                for t in transactions { basis = apply(t, basis) }
            }
            return Replayed(head: target, basis: basis, checkpoint: checkpoint, tail: tail)
        }
    }

    /// The basis after transaction `seq`: 0 is the initial basis, `head` the latest.
    ///
    /// Starts from the nearest checkpoint at or before `seq` (or the live basis when that is
    /// closer) and replays the rest; with a flatten function the rest is flattened and applied
    /// once. `usingCheckpoints: false` replays the whole log from the initial basis, which is
    /// how `verify` checks that checkpoints change nothing but speed.
    public func basis(at seq: Int, usingCheckpoints: Bool = true) throws -> Basis {
        let live = published.withLock { $0 }
        if usingCheckpoints, seq == live.head { return live.basis }
        return try reader.withLock { r in
            try Self.replay(r, to: seq, initial: initial, apply: apply, flatten: flatten,
                            codec: usingCheckpoints ? codec : nil, policy: policy,
                            known: usingCheckpoints ? live : nil).basis
        }
    }
}
