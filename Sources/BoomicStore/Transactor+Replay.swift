import Dispatch
import Foundation
import Synchronization

/// Rebuilding a state from the log: the newest usable checkpoint, then the tail after it.
extension Transactor {
    /// The result of a replay: the state after `head`, and the tail replayed after `checkpoint`.
    struct Replayed: Sendable {
        var head: Int
        var basis: Basis
        /// The checkpoint the replay started from, 0 when it started from the initial basis.
        var checkpoint: Int
        var tail: [TailItem]
        /// Where the checkpoint's bytes came from.
        var source: CheckpointSource = .none
    }

    /// Tails at least this long are JSON-decoded on another thread while the checkpoint decodes:
    /// at 50,000 songs a tail of 499 small edits costs ~25 ms to decode, the checkpoint ~60 ms,
    /// and the two do not depend on each other. Shorter tails are not worth a thread.
    static var backgroundTailRows: Int { 16 }

    /// The state after `target` (the log's head when nil), in one read transaction so the
    /// checkpoint and the rows come from the same snapshot of the file.
    ///
    /// The tail after the newest checkpoint is read first and decoded on another thread while the
    /// checkpoint decodes; if that checkpoint turns out damaged, the rows between the older one
    /// used instead and it are read and decoded here, so the result is the same either way.
    ///
    /// - Parameters:
    ///   - flatten: when given and the tail is longer than one, the tail is flattened and applied once.
    ///   - applyAll: otherwise, when given, the tail is folded by it rather than one `apply` at a time.
    ///   - codec: when nil, or when no checkpoint decodes, the replay starts from `initial`.
    ///   - known: a state already in memory; used instead of a checkpoint when it is as close, in
    ///     which case no checkpoint is decoded at all.
    ///   - image: the image file beside the log, mapped when it holds the checkpoint used (codecs
    ///     with `decodeImage`); `writesImage` replaces it from the checkpoint when it does not.
    static func replay(_ r: ReadSide, to target: Int?, initial: Basis,
                       apply: @Sendable (T, Basis) -> Basis, flatten: (@Sendable ([T]) -> T)?,
                       applyAll: (@Sendable ([T], Basis) -> Basis)? = nil,
                       codec: CheckpointCodec<Basis>?, policy: CheckpointPolicy<T>,
                       known: Snapshot? = nil, image: CheckpointImageFile? = nil,
                       writesImage: Bool = false) throws -> Replayed {
        try r.log.connection.transaction(immediate: false) {
            let head = try r.log.head()
            let target = target ?? head
            guard target >= 0, target <= head else { throw StoreError.noSuchSeq(target, head: head) }

            let newest = try codec.map { try r.log.latestCheckpointSeq(atOrBefore: target, format: $0.format) } ?? 0
            let usableKnown = known.flatMap { $0.head <= target ? $0 : nil }
            // Where the tail starts unless the newest checkpoint does not decode.
            let expected = max(newest, usableKnown?.head ?? 0)
            let later = try TailDecoding(r, after: expected, through: target, policy: policy,
                                         inBackground: target - expected >= backgroundTailRows)

            var start = Snapshot(head: 0, basis: initial)
            var checkpoint = 0
            var source = CheckpointSource.none
            if let usableKnown, usableKnown.head >= newest {
                start = usableKnown
            } else if let codec, newest > 0 {
                // Reading and decoding it allocate several times its size: ready the heap first.
                HeapPreparation.prepare(forAbout: try r.log.checkpointSize(seq: newest) * 6)
                let found: (seq: Int, value: Basis)?
                if let decodeImage = codec.decodeImage {
                    let loaded = try loadImage(r, atOrBefore: newest, format: codec.format, decodeImage,
                                               image: image, writesImage: writesImage)
                    found = loaded.map { ($0.seq, $0.value) }
                    source = loaded?.source ?? .none
                } else {
                    // A checkpoint is a cache: one that does not decode is skipped, and an older one tried.
                    found = try r.log.newestCheckpoint(atOrBefore: newest, format: codec.format, {
                        _, bytes in try? codec.decode(bytes)
                    })
                    if found != nil { source = .decoded }
                }
                HeapPreparation.finish()
                if let found {
                    start = Snapshot(head: found.seq, basis: found.value)
                    checkpoint = found.seq
                }
            }
            if let usableKnown, usableKnown.head > start.head { start = usableKnown }

            // Only when the newest checkpoint was damaged: the rows it would have saved.
            let earlier = try TailDecoding(r, after: start.head, through: expected, policy: policy, inBackground: false)
            let (transactions, tail) = try earlier.result().appending(later.result())
            let basis = fold(transactions, onto: start.basis, apply: apply, flatten: flatten, applyAll: applyAll)
            return Replayed(head: target, basis: basis, checkpoint: checkpoint, tail: tail, source: source)
        }
    }

    /// `basis` with `ts` applied in order: flattened and applied once when there is a flatten
    /// function and more than one, else folded by `applyAll` when there is one.
    static func fold(_ ts: [T], onto basis: Basis, apply: @Sendable (T, Basis) -> Basis,
                     flatten: (@Sendable ([T]) -> T)?, applyAll: (@Sendable ([T], Basis) -> Basis)? = nil) -> Basis {
        if let flatten, ts.count > 1 { return apply(flatten(ts), basis) }
        if let applyAll, ts.count > 1 { return applyAll(ts, basis) }
        return ts.reduce(basis) { apply($1, $0) }
    }

    /// The newest image checkpoint at or before `seq` that decodes, from the image file when
    /// that holds it, else from its row: written out as the image file and mapped when
    /// `writesImage` (and the folder takes it), read into memory otherwise. A file that does not
    /// decode is replaced from the row; a row that does not decode (or fails its checksum) is
    /// skipped for the one before it, as any checkpoint is.
    static func loadImage(_ r: ReadSide, atOrBefore seq: Int, format: Int,
                          _ decodeImage: @Sendable (ImageBytes) throws -> Basis,
                          image: CheckpointImageFile?, writesImage: Bool) throws -> (seq: Int, value: Basis, source: CheckpointSource)? {
        for at in try r.log.checkpointSeqs(atOrBefore: seq, format: format) {
            if let image, let header = r.log.checkpointPrefix(seq: at, count: CheckpointImageFile.headerSize),
               let bytes = image.mapped(matching: header), let value = try? decodeImage(bytes) {
                return (at, value, .mappedImage)
            }
            if !writesImage || image == nil {
                // An older state's checkpoint, or a library that keeps no image file.
                if case let .success(bytes) = try r.log.checkpointImage(at: at, format: format),
                   let value = try? decodeImage(bytes) {
                    return (at, value, .copiedBlob)
                }
                continue
            }
            let decoded = try r.log.checkpoint(at: at, format: format) { raw -> (Basis, CheckpointSource) in
                if let image, let bytes = image.replace(with: raw, logPath: r.log.path) {
                    return (try decodeImage(bytes), .wroteImage)
                }
                return (try decodeImage(ImageBytes(copying: raw)), .copiedBlob)
            }
            if case let .success((value, source)) = decoded { return (at, value, source) }
        }
        return nil
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
                            known: usingCheckpoints ? live : nil, image: imageFile).basis
        }
    }

    /// The basis after transaction `seq` and the transactions `after < t <= seq`, decoded on
    /// another thread while the state loads: what taking an earlier state back from a later
    /// checkpoint reads (the Transactor knows no inverse; the caller takes them back).
    public func basis(at seq: Int, withTransactionsAfter after: Int) throws -> (Basis, [T]) {
        try reader.withLock { r in
            let head = try r.log.head()
            guard after >= 0, after <= seq, seq <= head else { throw StoreError.noSuchSeq(max(after, seq), head: head) }
            let between = try TailDecoding(r, after: after, through: seq, policy: policy,
                                           inBackground: seq - after >= Self.backgroundTailRows)
            let basis = try Self.replay(r, to: seq, initial: initial, apply: apply, flatten: flatten, codec: codec,
                                        policy: policy, known: published.withLock { $0 }, image: imageFile).basis
            return (basis, try between.result().transactions)
        }
    }

    /// Decoded tail rows, in seq order, with their weights.
    struct DecodedTail: Sendable {
        var transactions: [T] = []
        var tail: [TailItem] = []

        func appending(_ other: DecodedTail) -> (transactions: [T], tail: [TailItem]) {
            (transactions + other.transactions, tail + other.tail)
        }
    }

    /// The rows `after < seq <= through`, read (checksums verified) on the calling thread, and
    /// JSON-decoded either there or on another thread, to be collected with `result()`.
    ///
    /// Decoding needs nothing but the bodies, which are copied out of SQLite first, so the other
    /// thread never touches the connection.
    struct TailDecoding {
        private let job: Job?
        private let inline: Result<DecodedTail, any Error>?

        /// The background work's outcome, written once by the worker, read after `group.wait()`.
        final class Job: Sendable {
            let outcome = Mutex<Result<DecodedTail, any Error>?>(nil)
            let group = DispatchGroup()
        }

        init(_ r: ReadSide, after: Int, through: Int, policy: CheckpointPolicy<T>, inBackground: Bool) throws {
            guard through > after else {
                job = nil
                inline = .success(DecodedTail())
                return
            }
            var rows: [(seq: Int, body: Data)] = []
            try r.log.forEachRow(where: "seq > ? AND seq <= ?", [.int(after), .int(through)]) {
                rows.append(($0.seq, $0.body))
            }
            guard inBackground else {
                job = nil
                inline = Result { try Self.decodeAll(rows, policy, r.decoder) }
                return
            }
            let job = Job()
            let bodies = rows
            DispatchQueue.global(qos: .userInitiated).async(group: job.group) {
                let outcome = Result { try Self.decodeAll(bodies, policy, JSONDecoder()) }
                job.outcome.withLock { $0 = outcome }
            }
            self.job = job
            inline = nil
        }

        /// Waits for the other thread if there is one; rethrows a row's decoding error.
        func result() throws -> DecodedTail {
            if let inline { return try inline.get() }
            guard let job else { return DecodedTail() }
            job.group.wait()
            return try job.outcome.withLock { $0 }!.get()
        }

        private static func decodeAll(_ rows: [(seq: Int, body: Data)], _ policy: CheckpointPolicy<T>,
                                      _ decoder: JSONDecoder) throws -> DecodedTail {
            var out = DecodedTail()
            out.transactions.reserveCapacity(rows.count)
            out.tail.reserveCapacity(rows.count)
            for row in rows {
                let t = try Transactor.decode(row.body, seq: row.seq, decoder)
                out.tail.append(TailItem(seq: row.seq, weight: policy.weight(t)))
                out.transactions.append(t)
            }
            return out
        }
    }
}
