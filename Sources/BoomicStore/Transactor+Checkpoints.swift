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
        // The rows whose weights are known without reading the log, consecutive.
        let batch = ts.enumerated().map { TailItem(seq: first + $0.offset, weight: policy.weight($0.element)) }
        let tailIsWhole = w.tail.last?.seq == first - 1 && w.tail.first.map { $0.seq + w.tail.count == first } == true
        return Self.plan(policy, stored: (try? w.log.checkpoints()) ?? [], last: w.lastCheckpoint,
                         weight: w.tail.reduce(0) { $0 &+ $1.weight }, before: tailIsWhole ? w.tail : [],
                         batch: batch, sizeGuess: sizeGuess)
    }

    /// `checkpointsKept` from its inputs: the checkpoints `stored`, the last one's seq and the
    /// weight since it, the rows `before` the batch that are known (consecutive up to it, or
    /// none) and the batch's rows.
    static func plan(_ policy: CheckpointPolicy<T>, stored: [StoredCheckpoint], last: Int, weight: Int,
                     before: [TailItem], batch: [TailItem], sizeGuess: Int?) -> Set<Int> {
        var all = stored, last = last, weight = weight
        let rows = before + batch
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

    /// The size to take for each checkpoint planned among `ts` (appended after `basis`) when
    /// none is stored to take it from and the policy keeps them by a size floor: the last
    /// state's, encoded to learn it. Taken for a byte, every one due would fit the floor and be
    /// written (80 s of an `import-json` of 10,000 transactions at 50,000 songs, against 8 s);
    /// taken as the first one's, a history of many imports (the bench's 200,000 songs come in
    /// ten) would keep a dozen early ones in the plan that the real sizes then thin (84 s against
    /// 19 s). The last state's is the largest for a library that grows, so the plan keeps no
    /// more than the sizes allow; one that shrank keeps fewer at first, and its merges add the
    /// rest. Nil otherwise.
    func plannedCheckpointSize(_ w: WriteSide, _ basis: Basis, _ ts: [T]) -> Int? {
        guard let codec, policy.sizeFloor > 0, !ts.isEmpty, (try? w.log.checkpoints())?.isEmpty == true else { return nil }
        return try? codec.encode(ts.reduce(basis) { apply($1, $0) }).count
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
            return checkpointsKept(w, first: s.head + 1, ts, sizeGuess: plannedCheckpointSize(w, s.basis, ts))
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
        guard let codec else { return [] }
        if let readOnlyBecause { throw readOnlyBecause }
        return try writer.withLock { w in
            try w.log.connection.transaction(immediate: true) { try w.log.dropCheckpoints() }
            w.lastCheckpoint = 0
            w.tail = []
            // Only the checkpoints that commits one at a time would have kept are written, planned
            // as `appendAll` plans them (writing each due one and thinning after encodes a whole
            // basis for nothing 90 times in 100: 109 s at 50,000 songs and 10,000 transactions).
            // The plan needs every row's weight first, and a size for the checkpoints it keeps:
            // the latest state's, as `appendAll` takes it (`plannedCheckpointSize`); rows
            // committed by others meanwhile wait for the next merge.
            var rows: [TailItem] = []
            try forEachEntry { rows.append(TailItem(seq: $0.seq, weight: policy.weight($0.transaction))) }
            let size = policy.sizeFloor > 0 ? try? codec.encode(published.withLock { $0 }.basis).count : nil
            let kept = Self.plan(policy, stored: [], last: 0, weight: 0, before: [], batch: rows, sizeGuess: size)
            let through = rows.last?.seq ?? 0
            var basis = initial
            try forEachEntry(through: through) { entry in
                basis = apply(entry.transaction, basis)
                w.tail.append(TailItem(seq: entry.seq, weight: policy.weight(entry.transaction)))
                if kept.contains(entry.seq) {
                    // Empties w.tail.
                    try writeCheckpoint(w, Snapshot(head: entry.seq, basis: basis),
                                        busyTimeout: SQLiteConnection.defaultBusyTimeout, writesImage: false)
                }
            }
            // catchUp adds the weights of rows past our published head when it reaches them.
            let head = published.withLock { $0.head }
            w.tail.removeAll { $0.seq > head }
            // The file too, whatever it held: `verify --repair` rebuilds through here.
            _ = try? writeImageFile(w, format: codec.format)
            w.log.connection.checkpointWAL()
            return try w.log.checkpoints().map(\.seq)
        }
    }
}
