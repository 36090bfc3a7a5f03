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
    /// Set when `encode` writes snapshot images (storage.md, "The image"): decodes owned bytes,
    /// which the basis may keep to read its contents where they lie. With it, the `Transactor`
    /// also writes the newest checkpoint beside the log as a file (`X.sqlite` → `X.image`) and
    /// opens by mapping that file (`CheckpointImageFile`); `decode` still serves `verify`.
    public var decodeImage: (@Sendable (ImageBytes) throws -> Basis)?

    public init(format: Int, encode: @escaping @Sendable (Basis) throws -> [UInt8],
                decode: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Basis,
                decodeImage: (@Sendable (ImageBytes) throws -> Basis)? = nil) {
        self.format = format
        self.encode = encode
        self.decode = decode
        self.decodeImage = decodeImage
    }

    /// A codec of snapshot images: `decodeImage` takes the bytes whoever owns them, and `decode`
    /// (reading bytes in place, for `verify`) copies them into an `ImageBytes` first.
    public init(format: Int, encode: @escaping @Sendable (Basis) throws -> [UInt8],
                decodeImage: @escaping @Sendable (ImageBytes) throws -> Basis) {
        self.init(format: format, encode: encode, decode: { try decodeImage(ImageBytes(copying: $0)) },
                  decodeImage: decodeImage)
    }

    /// A codec whose decoder takes an array (the bytes are copied out of SQLite first).
    public init(format: Int, encode: @escaping @Sendable (Basis) throws -> [UInt8],
                decodeArray: @escaping @Sendable ([UInt8]) throws -> Basis) {
        self.init(format: format, encode: encode, decode: { try decodeArray([UInt8]($0)) })
    }
}

/// When the `Transactor` writes checkpoints, and which it keeps.
///
/// Opening costs the replay of the tail after the newest checkpoint, so a checkpoint is written
/// once `every` transactions or `maxWeight` weight (say, assertions) have accumulated since the
/// last one: a single import of 50,000 songs is as slow to replay as thousands of small edits.
/// Checkpoints are kept by size, not by count (storage.md, "Checkpoints"): the newest always,
/// and older ones while together they weigh at most `sizeRatio` times the newest's bytes, or
/// `sizeFloor` when that is more (a library's checkpoint is megabytes, at a million songs
/// hundreds of them), spread over history (time travel reads from the nearest one).
public struct CheckpointPolicy<T>: Sendable {
    public var every: Int
    public var maxWeight: Int
    public var weight: @Sendable (T) -> Int
    /// The older checkpoints together weigh at most this many times the newest's bytes; nil:
    /// no limit by size (tests of the thinning by count alone).
    public var sizeRatio: Int?
    /// The older checkpoints may always weigh this many bytes together, whatever `sizeRatio`
    /// says: while checkpoints are small, more of them cost little disk and save much replay.
    public var sizeFloor: Int
    /// A checkpoint whose removal leaves at most this replay weight between its neighbours is
    /// not kept, whatever the size rules allow: a library with small checkpoints keeps enough
    /// of them to read any state quickly, not all it has room for.
    public var minimumGap: Int
    /// At most this many are kept, whatever their size; nil: no limit but the size.
    public var retained: Int?

    /// - Parameters:
    ///   - every: transactions after which a checkpoint is due.
    ///   - maxWeight: accumulated `weight` after which a checkpoint is due.
    ///   - sizeRatio: the older checkpoints kept weigh at most this many times the newest; 0
    ///     keeps the newest alone, nil sets no limit by size.
    ///   - sizeFloor: bytes the older checkpoints may weigh together even past `sizeRatio`.
    ///   - minimumGap: the replay weight below which two gaps are merged by dropping the
    ///     checkpoint between them; 0 merges none for that reason.
    ///   - retained: an upper bound on how many are kept; at least 1 (the newest is always kept).
    ///   - weight: how costly a transaction is to replay; 1 by default.
    public init(every: Int = 500, maxWeight: Int = 5_000, sizeRatio: Int? = 2, sizeFloor: Int = 0, minimumGap: Int = 0,
                retained: Int? = nil, weight: @escaping @Sendable (T) -> Int = { _ in 1 }) {
        self.every = max(1, every)
        self.maxWeight = max(1, maxWeight)
        self.sizeRatio = sizeRatio.map { max(0, $0) }
        self.sizeFloor = max(0, sizeFloor)
        self.minimumGap = max(0, minimumGap)
        self.retained = retained.map { max(1, $0) }
        self.weight = weight
    }

    /// Whether a checkpoint is due after `count` transactions of total `weight` since the last one.
    func isDue(count: Int, weight: Int) -> Bool {
        count >= every || (count > 0 && weight >= maxWeight)
    }

    /// The checkpoints this policy keeps of `checkpoints`, with their merged weights.
    func thinned(_ checkpoints: [StoredCheckpoint]) -> [StoredCheckpoint] {
        Self.kept(checkpoints, retained: retained, sizeRatio: sizeRatio, sizeFloor: sizeFloor, minimumGap: minimumGap)
    }

    /// `thinned` by count alone: at most `retained` remain.
    static func thinned(_ checkpoints: [StoredCheckpoint], retained: Int) -> [StoredCheckpoint] {
        kept(checkpoints, retained: retained, sizeRatio: nil)
    }

    /// The checkpoints to keep so that at most `retained` remain and the older ones weigh at
    /// most `sizeRatio` times the newest or `sizeFloor`, whichever is more (each rule only when
    /// given), with their merged weights.
    ///
    /// Repeatedly drops the checkpoint whose removal leaves the lightest replay between its
    /// neighbours (its own weight plus the next one's; ties drop the older), and gives its weight
    /// to the next. So the worst replay for time travel grows as little as possible, and the
    /// checkpoint right after a 50,000-song import outlives those between small edits. The newest
    /// is always kept: it is the one that makes opening fast.
    ///
    /// Besides, a checkpoint goes while the replay its removal leaves weighs at most
    /// `minimumGap`: below that, one more costs disk and saves little.
    static func kept(_ checkpoints: [StoredCheckpoint], retained: Int?, sizeRatio: Int?, sizeFloor: Int = 0,
                     minimumGap: Int = 0) -> [StoredCheckpoint] {
        var kept = checkpoints.sorted { $0.seq < $1.seq }
        func tooMany() -> Bool {
            guard kept.count > 1 else { return false }
            if let retained, kept.count > retained { return true }
            guard let sizeRatio else { return false }
            let older = kept.dropLast().reduce(0) { $0 &+ max(0, $1.size) }
            let (budget, overflow) = max(0, kept.last!.size).multipliedReportingOverflow(by: sizeRatio)
            return !overflow && older > max(budget, sizeFloor)
        }
        while kept.count > 1 {
            var best = 0
            var bestCost = Int.max
            for i in 0..<(kept.count - 1) {
                let cost = kept[i].weight &+ kept[i + 1].weight
                if cost < bestCost { bestCost = cost; best = i }
            }
            guard bestCost <= minimumGap || tooMany() else { break }
            kept[best + 1].weight &+= kept[best].weight
            kept.remove(at: best)
        }
        return kept
    }
}
