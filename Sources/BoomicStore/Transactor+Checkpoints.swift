/// Writing, listing and rebuilding checkpoints: caches of the basis that make opening cheap.
extension Transactor {
    /// Writes a checkpoint when the policy says one is due. Best effort: a checkpoint is a cache,
    /// so failing to write one never fails the commit that triggered it.
    func maybeCheckpoint(_ w: WriteSide, _ s: Snapshot) {
        guard codec != nil, readOnlyBecause == nil, due(w, s, policy) else { return }
        // Never queue behind another process for a cache: if the lock is taken, a later commit tries again.
        _ = try? writeCheckpoint(w, s, busyTimeout: 0)
    }

    /// The seqs among `ts` (appended from `first` on) where one-at-a-time commits would have
    /// left a checkpoint once the policy's thinning was done: what was due, thinned as each
    /// was written, against the checkpoints already stored. A thinned checkpoint's weight goes
    /// to the next one, so writing only these, each weighing what came since the last one
    /// written, leaves the same checkpoints with the same weights.
    func checkpointsKept(_ w: WriteSide, first: Int, _ ts: [T]) -> Set<Int> {
        guard codec != nil, readOnlyBecause == nil else { return [] }
        var all = (try? w.log.checkpoints()) ?? []
        var last = w.lastCheckpoint
        var weight = w.tail.reduce(0) { $0 &+ $1.weight }
        var due: Set<Int> = []
        for (i, t) in ts.enumerated() {
            let seq = first + i
            weight &+= policy.weight(t)
            guard policy.isDue(count: seq - last, weight: weight) else { continue }
            // Its size is not known before it is encoded: taken as the newest stored one's.
            all.append(StoredCheckpoint(seq: seq, weight: max(1, weight), size: all.last?.size ?? 1))
            all = policy.thinned(all)
            due.insert(seq)
            last = seq
            weight = 0
        }
        return due.intersection(all.map(\.seq))
    }

    /// Encodes `s.basis` and stores it at `s.head`, thinning old checkpoints as `policy` says, in
    /// a small transaction of its own (never inside a commit, so it cannot undo one). With a codec
    /// of images and `writesImage`, the bytes also replace the image file beside the log when
    /// they are the newest checkpoint (best effort: the file is a cache of the row).
    func writeCheckpoint(_ w: WriteSide, _ s: Snapshot, busyTimeout: Int32, writesImage: Bool = true) throws {
        guard let codec, s.head > 0 else { return }
        var data = try codec.encode(s.basis)
        if codec.decodeImage != nil { ImageLayout.stamp(&data, format: UInt64(codec.format), seq: UInt64(s.head)) }
        let connection = w.log.connection
        connection.setBusyTimeout(milliseconds: busyTimeout)
        defer { connection.setBusyTimeout(milliseconds: SQLiteConnection.defaultBusyTimeout) }
        let weight = w.tail.reduce(0) { $1.seq <= s.head ? $0 &+ $1.weight : $0 }
        let newest = try connection.transaction(immediate: true) { () -> Bool in
            try w.log.insertCheckpoint(seq: s.head, format: codec.format, weight: max(1, weight), data: data)
            let all = try w.log.checkpoints()
            try w.log.retain(policy.thinned(all), of: all)
            return try w.log.latestCheckpointSeq(atOrBefore: .max, format: codec.format) == s.head
        }
        w.lastCheckpoint = max(w.lastCheckpoint, s.head)
        w.tail.removeAll { $0.seq <= s.head }
        if writesImage, newest, let imageFile {
            _ = data.withUnsafeBytes { imageFile.write($0, logPath: path) }
        }
    }

    /// Writes a checkpoint of the latest basis now, whatever the policy, waiting for the write lock.
    ///
    /// - Returns: its seq; nil when there is no codec or the log is empty.
    @discardableResult
    public func checkpoint() throws -> Int? {
        guard codec != nil else { return nil }
        if let readOnlyBecause { throw readOnlyBecause }
        return try writer.withLock { w in
            let s = published.withLock { $0 }
            guard s.head > 0 else { return nil }
            try writeCheckpoint(w, s, busyTimeout: SQLiteConnection.defaultBusyTimeout)
            w.log.connection.checkpointWAL()
            return s.head
        }
    }

    /// The basis stored in the checkpoint at `seq`, read as is (no replay, no fallback):
    /// `verify` compares it with the log replayed to `seq`. Throws when it is damaged or does not
    /// decode, which opening would silently skip.
    ///
    /// - Returns: nil when there is no checkpoint at `seq` in this build's format.
    public func storedCheckpoint(at seq: Int) throws -> Basis? {
        guard let codec else { return nil }
        let result = try reader.withLock { r in try r.log.checkpoint(at: seq, format: codec.format) { try codec.decode($0) } }
        return try result?.get()
    }

    /// The seqs of the stored checkpoints (of any format), ascending.
    public func checkpointSeqs() throws -> [Int] {
        try reader.withLock { try $0.log.checkpoints().map(\.seq) }
    }

    /// The stored checkpoints' weights, in seq order (tests compare where they stand).
    func checkpointWeights() throws -> [Int] {
        try reader.withLock { try $0.log.checkpoints().map(\.weight) }
    }

    /// Deletes every checkpoint. Nothing changes but speed: the next open replays the whole log.
    public func dropCheckpoints() throws {
        if let readOnlyBecause { throw readOnlyBecause }
        try writer.withLock { w in
            try w.log.connection.transaction(immediate: true) { try w.log.dropCheckpoints() }
            w.lastCheckpoint = 0
            w.log.connection.checkpointWAL()
        }
    }

    /// Replaces all checkpoints with fresh ones made by replaying the whole log from the initial
    /// basis, where the policy would have written them. For `verify`, and after a codec change.
    ///
    /// Reads the log in pages, so other processes may keep committing meanwhile.
    /// - Returns: the seqs of the checkpoints kept.
    @discardableResult
    public func rebuildCheckpoints() throws -> [Int] {
        guard codec != nil else { return [] }
        if let readOnlyBecause { throw readOnlyBecause }
        return try writer.withLock { w in
            try w.log.connection.transaction(immediate: true) { try w.log.dropCheckpoints() }
            w.lastCheckpoint = 0
            w.tail = []
            var basis = initial
            try forEachEntry { entry in
                basis = apply(entry.transaction, basis)
                w.tail.append(TailItem(seq: entry.seq, weight: policy.weight(entry.transaction)))
                if policy.isDue(count: w.tail.count, weight: w.tail.reduce(0) { $0 &+ $1.weight }) {
                    // Empties w.tail.
                    try writeCheckpoint(w, Snapshot(head: entry.seq, basis: basis),
                                        busyTimeout: SQLiteConnection.defaultBusyTimeout, writesImage: false)
                }
            }
            // catchUp adds the weights of rows past our published head when it reaches them.
            let head = published.withLock { $0.head }
            w.tail.removeAll { $0.seq > head }
            // The file too, whatever it held: `verify --repair` rebuilds through here.
            if let codec { _ = try? writeImageFile(w, format: codec.format) }
            w.log.connection.checkpointWAL()
            return try w.log.checkpoints().map(\.seq)
        }
    }
}
