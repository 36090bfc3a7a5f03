/// How a basis becomes the bytes of a checkpoint and back.
///
/// A checkpoint is a cache (DESIGN §3): one whose `format` differs from the codec's, whose
/// checksum fails or whose `decode` throws is ignored and the log is replayed instead. So bump
/// `format` whenever the encoding changes; old checkpoints are then skipped, never misread.
public struct CheckpointCodec<Basis>: Sendable {
    /// Stored with each checkpoint; only checkpoints of this format are decoded.
    public var format: Int
    public var encode: @Sendable (Basis) throws -> [UInt8]
    /// Reads the stored bytes in place: a library's checkpoint is megabytes, so no copy is made.
    public var decode: @Sendable (UnsafeRawBufferPointer) throws -> Basis

    public init(format: Int, encode: @escaping @Sendable (Basis) throws -> [UInt8],
                decode: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Basis) {
        self.format = format
        self.encode = encode
        self.decode = decode
    }

    /// A codec whose decoder takes an array (the bytes are copied out of SQLite first).
    public init(format: Int, encode: @escaping @Sendable (Basis) throws -> [UInt8],
                decodeArray: @escaping @Sendable ([UInt8]) throws -> Basis) {
        self.init(format: format, encode: encode, decode: { try decodeArray([UInt8]($0)) })
    }
}

/// When the `Transactor` writes checkpoints, and how many it keeps.
///
/// Opening costs the replay of the tail after the newest checkpoint, so a checkpoint is written
/// once `every` transactions or `maxWeight` weight (say, assertions) have accumulated since the
/// last one: a single import of 50,000 songs is as slow to replay as thousands of small edits.
/// Checkpoints of a big library are megabytes, so only `retained` are kept, spread over history
/// (time travel replays from the nearest one at or before the state asked for).
public struct CheckpointPolicy<T>: Sendable {
    public var every: Int
    public var maxWeight: Int
    public var weight: @Sendable (T) -> Int
    public var retained: Int

    /// - Parameters:
    ///   - every: transactions after which a checkpoint is due.
    ///   - maxWeight: accumulated `weight` after which a checkpoint is due.
    ///   - retained: checkpoints kept; at least 1 (the newest is always kept).
    ///   - weight: how costly a transaction is to replay; 1 by default.
    public init(every: Int = 500, maxWeight: Int = 5_000, retained: Int = 10,
                weight: @escaping @Sendable (T) -> Int = { _ in 1 }) {
        self.every = max(1, every)
        self.maxWeight = max(1, maxWeight)
        self.retained = max(1, retained)
        self.weight = weight
    }

    /// Whether a checkpoint is due after `count` transactions of total `weight` since the last one.
    func isDue(count: Int, weight: Int) -> Bool {
        count >= every || (count > 0 && weight >= maxWeight)
    }

    /// The checkpoints to keep so that at most `retained` remain, with their merged weights.
    ///
    /// Repeatedly drops the checkpoint whose removal leaves the lightest replay between its
    /// neighbours (its own weight plus the next one's; ties drop the older), and gives its weight
    /// to the next. So the worst replay for time travel grows as little as possible, and the
    /// checkpoint right after a 50,000-song import outlives those between small edits. The newest
    /// is always kept: it is the one that makes opening fast.
    static func thinned(_ checkpoints: [StoredCheckpoint], retained: Int) -> [StoredCheckpoint] {
        var kept = checkpoints.sorted { $0.seq < $1.seq }
        while kept.count > max(1, retained) {
            var best = 0
            var bestCost = Int.max
            for i in 0..<(kept.count - 1) {
                let cost = kept[i].weight &+ kept[i + 1].weight
                if cost < bestCost { bestCost = cost; best = i }
            }
            kept[best + 1].weight &+= kept[best].weight
            kept.remove(at: best)
        }
        return kept
    }
}
