/// Writing, listing and rebuilding checkpoints: caches of the basis that make opening cheap.
extension Transactor {
    /// Writes a checkpoint when the policy says one is due. Best effort: a checkpoint is a cache,
    /// so failing to write one never fails the commit that triggered it.
    func maybeCheckpoint(_ w: WriteSide, _ s: Snapshot) {
        guard codec != nil, readOnlyBecause == nil, due(w, s, policy) else { return }
        // Never queue behind another process for a cache: if the lock is taken, a later commit tries again.
        guard (try? writeCheckpoint(w, s, busyTimeout: 0)) != nil else { return }
        try? moveCheckpoint(w, policy)
    }

    /// The seqs among `ts` (appended from `first` on) where one-at-a-time commits would have
    /// left a checkpoint once the policy's thinning was done: what was due, thinned as each
    /// was written, against the checkpoints already stored. A thinned checkpoint's weight goes
    /// to the next one, so writing only these, each weighing what came since the last one
    /// written, leaves the same checkpoints with the same weights.
    ///
    /// Each due one is followed by the move a commit's checkpoint makes (`moveCheckpoint`), when
    /// the rows of the gap it cuts are in the batch or the tail before it; a move further back
    /// is left to the merges after.
    ///
    /// - Parameter sizeGuess: the size taken for each checkpoint when none is stored to take it from.
    func checkpointsKept(_ w: WriteSide, first: Int, _ ts: [T], sizeGuess: Int? = nil) -> Set<Int> {
        guard codec != nil, readOnlyBecause == nil else { return [] }
        var all = (try? w.log.checkpoints()) ?? []
        var last = w.lastCheckpoint
        var weight = w.tail.reduce(0) { $0 &+ $1.weight }
        // The rows whose weights are known without reading the log, consecutive.
        let batch = ts.enumerated().map { TailItem(seq: first + $0.offset, weight: policy.weight($0.element)) }
        let tailIsWhole = w.tail.last?.seq == first - 1 && w.tail.first.map { $0.seq + w.tail.count == first } == true
        let rows = tailIsWhole ? w.tail + batch : batch
        var due: Set<Int> = []
        for item in batch {
            let seq = item.seq
            weight &+= item.weight
            guard policy.isDue(count: seq - last, weight: weight) else { continue }
            // Its size is not known before it is encoded: taken as the newest stored one's.
            let size = all.last?.size ?? sizeGuess ?? 1
            all.append(StoredCheckpoint(seq: seq, weight: max(1, weight), size: size))
            all = policy.thinned(all)
            due.insert(seq)
            last = seq
            weight = 0
            if let move = CheckpointPolicy<T>.bestMove(all), let start = rows.first?.seq, move.after + 1 >= start,
               let cut = CheckpointPolicy<T>.cut(Array(rows[(move.after + 1 - start)...(move.through - start)])),
               let moved = policy.moving(all, move, to: cut, size: size) {
                all = moved
                due.insert(cut.seq)
            }
        }
        return due.intersection(all.map(\.seq))
    }

    /// The size of the first checkpoint due among `ts` (appended after `basis`), encoded to learn
    /// it, when no checkpoint is stored and the policy keeps them by a size floor: its plan
    /// would otherwise take them for one byte each and keep every one (writing each: 80 s of an
    /// `import-json` of 10,000 transactions at 50,000 songs, against 8 s). Nil otherwise.
    func firstCheckpointSize(_ w: WriteSide, _ basis: Basis, first: Int, _ ts: [T]) -> Int? {
        guard let codec, policy.sizeFloor > 0, (try? w.log.checkpoints())?.isEmpty == true else { return nil }
        var weight = w.tail.reduce(0) { $0 &+ $1.weight }
        var b = basis
        for (i, t) in ts.enumerated() {
            b = apply(t, b)
            weight &+= policy.weight(t)
            if policy.isDue(count: first + i - w.lastCheckpoint, weight: weight) { return try? codec.encode(b).count }
        }
        return nil
    }

    /// After a checkpoint written by policy: moves one stored checkpoint (never the newest) to
    /// where it saves the most replay, when that leaves lighter gaps (`CheckpointBalance.swift`),
    /// building the new one from the checkpoint before its gap and the gap's rows up to the cut.
    /// Best effort, as any checkpoint; nothing is written when another process changed the
    /// checkpoints meanwhile.
    func moveCheckpoint(_ w: WriteSide, _ policy: CheckpointPolicy<T>) throws {
        guard let codec, readOnlyBecause == nil else { return }
        let r = ReadSide(log: w.log)
        let stored = try w.log.checkpoints()
        guard let move = CheckpointPolicy<T>.bestMove(stored) else { return }
        let size = stored.first { $0.seq == move.dropping }?.size ?? 1
        let rows = try TailDecoding(r, after: move.after, through: move.through, policy: policy, inBackground: false).result()
        guard let cut = CheckpointPolicy<T>.cut(rows.tail), policy.moving(stored, move, to: cut, size: size) != nil else { return }
        let start = move.after == 0 ? initial
            : try Self.replay(r, to: move.after, initial: initial, apply: apply, flatten: flatten, codec: codec, policy: policy).basis
        let basis = Self.fold(Array(rows.transactions.prefix(cut.seq - move.after)), onto: start, apply: apply, flatten: flatten)
        var data = try codec.encode(basis)
        if codec.decodeImage != nil { ImageLayout.stamp(&data, format: UInt64(codec.format), seq: UInt64(cut.seq)) }
        let connection = w.log.connection
        connection.setBusyTimeout(milliseconds: 0)
        defer { connection.setBusyTimeout(milliseconds: SQLiteConnection.defaultBusyTimeout) }
        try connection.transaction(immediate: true) {
            let now = try w.log.checkpoints()
            guard now == stored, let kept = policy.moving(now, move, to: cut, size: data.count) else { return }
            try w.log.insertCheckpoint(seq: cut.seq, format: codec.format, weight: max(1, cut.weight), data: data)
            try w.log.retain(kept, of: try w.log.checkpoints())
        }
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

    /// The checkpoints `appendAll(ts)` would write now (tests count them).
    func checkpointsPlanned(for ts: [T]) -> Set<Int> {
        writer.withLock { w in
            let s = published.withLock { $0 }
            return checkpointsKept(w, first: s.head + 1, ts, sizeGuess: firstCheckpointSize(w, s.basis, first: s.head + 1, ts))
        }
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
