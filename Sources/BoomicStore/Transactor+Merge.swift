/// Checkpoints written after a command rather than inside it (storage.md, "The basis: image +
/// delta"): a process whose commits must not pay for a checkpoint opens its Transactor with a
/// policy that never makes one due, asks `isCheckpointDue(under:)` with the real policy once its
/// output is written, and leaves the writing to another process (`boomic merge`), which calls
/// `checkpointIfDue(under:)`.
extension Transactor {
    /// Whether `policy` would have a checkpoint written at the head now.
    public func isCheckpointDue(under policy: CheckpointPolicy<T>) -> Bool {
        guard codec != nil, readOnlyBecause == nil else { return false }
        return writer.withLock { w in due(w, published.withLock { $0 }, policy) }
    }

    /// Writes a checkpoint of the head when `policy` says one is due; never waits for another
    /// writer (a checkpoint is a cache: the next command asks again).
    ///
    /// - Returns: whether one was written.
    @discardableResult
    public func checkpointIfDue(under policy: CheckpointPolicy<T>) throws -> Bool {
        guard codec != nil, readOnlyBecause == nil else { return false }
        return try writer.withLock { w in
            let s = published.withLock { $0 }
            guard due(w, s, policy) else { return false }
            try writeCheckpoint(w, s, busyTimeout: 0)
            try? moveCheckpoint(w, policy)
            return true
        }
    }

    /// Whether `policy` has a checkpoint due at `s`, counting from the newest one any process wrote.
    func due(_ w: WriteSide, _ s: Snapshot, _ policy: CheckpointPolicy<T>) -> Bool {
        guard let codec else { return false }
        // Another process may have written one since; then the tail to count is shorter.
        if let latest = try? w.log.latestCheckpointSeq(atOrBefore: s.head, format: codec.format), latest > w.lastCheckpoint {
            w.lastCheckpoint = latest
            w.tail.removeAll { $0.seq <= latest }
        }
        return policy.isDue(count: s.head - w.lastCheckpoint, weight: w.tail.reduce(0) { $0 + $1.weight })
    }
}
