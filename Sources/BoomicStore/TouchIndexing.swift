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
    /// The most rows a commit records itself; a transaction that may make more (`size`) is left
    /// to the next catch-up (`Transactor.catchUpTouchIndex`), by a process that runs after the
    /// command: an import, a bulk edit or a rollback touches tens of thousands of keys, and their
    /// rows were a quarter of such a commit. `.max`: every commit records its own.
    public var commitLimit: Int
    /// An upper bound on the rows `touches(t)` gives, read without computing them.
    public var size: @Sendable (T) -> Int

    public init(format: Int, commitLimit: Int = .max, size: @escaping @Sendable (T) -> Int = { _ in 0 },
                touches: @escaping @Sendable (T) -> [(key: String, info: String)]) {
        self.format = format
        self.commitLimit = commitLimit
        self.size = size
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
