/// Checking the index of keys → transactions against the log (`verify`), and rebuilding it.
extension Transactor {
    /// The index's rows for `t` committed at `seq`, as a commit records them; none without an index.
    public func indexedTouches(of t: T, seq: Int) -> [IndexedTouch] {
        guard let touchIndexing else { return [] }
        return touchIndexing.touches(t).map { IndexedTouch(key: $0.key, seq: seq, info: $0.info) }
    }

    /// How the stored index differs from `expected`, the rows the log gives through `head`
    /// (`indexedTouches` of each transaction), in one line; nil when it agrees as far as it
    /// reaches. An index that is missing, of another format or behind the log is no damage: it
    /// is a cache, made or caught up when next needed.
    public func touchIndexDifference(expected: Set<IndexedTouch>, through head: Int) throws -> String? {
        guard let touchIndexing else { return nil }
        let (through, stored) = try reader.withLock { r in
            try r.log.connection.transaction(immediate: false) { () -> (Int, Set<IndexedTouch>) in
                guard let through = try r.log.touchesThrough(format: touchIndexing.format) else { return (0, []) }
                let upTo = min(through, head)
                return (upTo, try r.log.allTouches(through: upTo))
            }
        }
        guard through > 0 else { return nil }
        let wanted = expected.filter { $0.seq <= through }
        guard wanted != stored else { return nil }
        let missing = wanted.subtracting(stored), extra = stored.subtracting(wanted)
        let first = (missing.map(\.seq) + extra.map(\.seq)).min() ?? 0
        return "the index of what each transaction touched differs from the log through transaction \(through): "
            + "\(missing.count) entr\(missing.count == 1 ? "y" : "ies") missing, \(extra.count) wrong or extra "
            + "(the first at transaction \(first))"
    }

    /// Drops the index and records it again from the whole log (`verify --repair`).
    public func rebuildTouchIndex() throws {
        guard let touchIndexing else { return }
        if let readOnlyBecause { throw readOnlyBecause }
        try writer.withLock { w in
            try w.log.connection.transaction(immediate: true) { try w.log.resetTouches(format: touchIndexing.format) }
            try catchUpTouches(w, touchIndexing)
            w.log.connection.checkpointWAL()
        }
    }
}
