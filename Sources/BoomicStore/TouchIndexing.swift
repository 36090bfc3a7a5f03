/// What the index of keys → transactions (`touches`) records of each transaction: the keys it
/// touched (a song's id), each with what it did to it, as text the caller reads back.
///
/// The index is a cache of the log, like a checkpoint: it answers "which transactions touched
/// this key" in O(the key's own history) instead of a read of every body. The store knows no
/// music; the library says what a key and an entry mean (`blame`).
public struct TouchIndexing<T>: Sendable {
    /// Bump when `touches` computes something else: a stored index of another format is
    /// dropped and rebuilt from the log the next time it is needed.
    public var format: Int
    /// The keys `t` touches, each once, with what it did to each.
    public var touches: @Sendable (T) -> [(key: String, info: String)]

    public init(format: Int, touches: @escaping @Sendable (T) -> [(key: String, info: String)]) {
        self.format = format
        self.touches = touches
    }
}

/// One key's entry in the index: the transaction at `seq` touched it, and `info` says how.
public struct Touch: Sendable, Equatable {
    public var seq: Int
    public var info: String

    public init(seq: Int, info: String) {
        self.seq = seq
        self.info = info
    }
}

/// One row of the index: the transaction at `seq` touched `key`, as `info` says (`verify`
/// compares the stored rows with those the log gives).
public struct IndexedTouch: Hashable, Sendable {
    public var key: String
    public var seq: Int
    public var info: String

    public init(key: String, seq: Int, info: String) {
        self.key = key
        self.seq = seq
        self.info = info
    }
}
