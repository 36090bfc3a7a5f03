import HashTreeCollections

/// The songs of a basis: the rows of an image, read where they lie, overlaid by a persistent
/// delta of the songs added, changed or removed since (storage.md, "The basis: image + delta").
///
/// Without an image every song is in the delta, as a basis replayed from the log holds them.
/// Applying a transaction changes only the delta, so it costs O(change) whatever the library's
/// size; reading a song looks in the delta, then materialises the image's row. Iteration gives
/// the image's rows that the delta does not shadow, in path order, then the delta's songs.
public struct SongTable: Sendable, Sequence {
    public typealias Element = (key: SongID, value: Song)

    /// The checkpoint's songs, nil when the basis was built without one.
    public let image: (any SongImage)?
    /// Songs added or changed since the image (every song, when there is none).
    public private(set) var changed: TreeDictionary<SongID, Song>
    /// Songs of the image removed since (never an id that `changed` holds).
    public private(set) var removed: TreeSet<SongID>
    public private(set) var count: Int

    public init() {
        image = nil
        changed = [:]
        removed = []
        count = 0
    }

    /// A table holding exactly these songs, without an image.
    public init(_ songs: TreeDictionary<SongID, Song>) {
        image = nil
        changed = songs
        removed = []
        count = songs.count
    }

    /// The songs of an image, unchanged.
    public init(image: any SongImage) {
        self.image = image
        changed = [:]
        removed = []
        count = image.rowCount
    }

    public var isEmpty: Bool { count == 0 }

    /// Whether the delta holds anything: a song changed, added or removed since the image (without
    /// an image, any song at all).
    public var hasDelta: Bool { !changed.isEmpty || !removed.isEmpty }

    public subscript(id: SongID) -> Song? {
        if let s = changed[id] { return s }
        guard let image, !removed.contains(id), let row = image.row(of: id) else { return nil }
        return image.song(atRow: row)
    }

    /// The songs these ids name, as `self[id]` gives them (an id it lacks is left out), the
    /// image's rows read in one pass in row order: a transaction of thousands of updates reads
    /// its songs this way at a fraction of the cost of reading them one by one.
    public func songs(_ ids: some Sequence<SongID>) -> [SongID: Song] {
        var out: [SongID: Song] = [:]
        var rows: [Int] = []
        for id in ids {
            if let s = changed[id] {
                out[id] = s
            } else if let image, !removed.contains(id), let row = image.row(of: id) {
                rows.append(row)
            }
        }
        guard let image, !rows.isEmpty else { return out }
        rows.sort()
        var unique: [Int] = []
        unique.reserveCapacity(rows.count)
        for r in rows where unique.last != r { unique.append(r) }
        for s in image.songs(atRows: unique) { out[s.id] = s }
        return out
    }

    public func contains(_ id: SongID) -> Bool {
        if changed[id] != nil { return true }
        guard let image, !removed.contains(id) else { return false }
        return image.row(of: id) != nil
    }

    /// Whether the image's row with this id is still the song's (neither changed nor removed).
    @inline(__always)
    public func isLive(imageID id: SongID) -> Bool {
        (changed.isEmpty && removed.isEmpty) || (changed[id] == nil && !removed.contains(id))
    }

    /// Adds or replaces a song; says whether it replaced one. Reads no image row: a
    /// transaction's cost stays its own size.
    @discardableResult
    public mutating func insert(_ song: Song) -> Bool {
        let id = song.id
        let existed: Bool
        if changed[id] != nil {
            existed = true
        } else if removed.remove(id) != nil {
            existed = false
        } else {
            existed = image?.row(of: id) != nil
        }
        changed[id] = song
        if !existed { count += 1 }
        return existed
    }

    /// `insert` of a song the table holds (one just read from it, and changed): its count stays,
    /// and its row in the image is not looked up again.
    mutating func replace(_ song: Song) {
        changed[song.id] = song
    }

    /// Removes a song; says whether there was one.
    @discardableResult
    public mutating func remove(_ id: SongID) -> Bool {
        let inImage = !removed.contains(id) && image?.row(of: id) != nil
        guard changed.removeValue(forKey: id) != nil || inImage else { return false }
        if inImage { removed.insert(id) }
        count -= 1
        return true
    }

    /// The songs, in the table's order (an eager sequence: `filter` and `map` give arrays).
    public var values: Values { Values(table: self) }
    public var keys: [SongID] { map(\.key) }

    public struct Values: Sequence {
        let table: SongTable
        public var underestimatedCount: Int { table.count }
        public var first: Song? { table.first { _ in true }?.value }
        public func makeIterator() -> Iterator {
            Iterator(inner: table.makeIterator())
        }
        public struct Iterator: IteratorProtocol {
            var inner: SongTable.Iterator
            public mutating func next() -> Song? { inner.next()?.value }
        }
    }

    /// The image's rows the delta does not shadow, in path order: the rows a query over the
    /// image's columns may return.
    public func liveRows() -> [Int] {
        guard let image else { return [] }
        guard hasDelta else { return Array(0..<image.rowCount) }
        return (0..<image.rowCount).filter { isLive(imageID: image.id(atRow: $0)) }
    }

    public var underestimatedCount: Int { count }

    public func makeIterator() -> Iterator { Iterator(self) }

    /// Every song, with only `fields` (and the id and path) read from the image's rows; the
    /// delta's songs whole. What an index over every song reads.
    public func forEach(reading fields: [SongField], _ body: (Song) -> Void) {
        if let image {
            let rows = liveRows()
            var start = 0
            while start < rows.count {
                let end = Swift.min(rows.count, start + 4_096)
                for s in image.songs(atRows: rows[start..<end], reading: fields) { body(s) }
                start = end
            }
        }
        for (_, s) in changed { body(s) }
    }

    public struct Iterator: IteratorProtocol {
        private let table: SongTable
        private var nextRow = 0
        private var batch: [Song] = []
        private var inBatch = 0
        private var rest: TreeDictionary<SongID, Song>.Iterator

        init(_ table: SongTable) {
            self.table = table
            rest = table.changed.makeIterator()
        }

        /// Rows are materialised 512 at a time: one resolution of the columns per batch.
        private static let batchSize = 512

        public mutating func next() -> Element? {
            if inBatch < batch.count {
                defer { inBatch += 1 }
                return (batch[inBatch].id, batch[inBatch])
            }
            if let image = table.image, nextRow < image.rowCount {
                var rows: [Int] = []
                rows.reserveCapacity(Self.batchSize)
                while rows.count < Self.batchSize, nextRow < image.rowCount {
                    if table.isLive(imageID: image.id(atRow: nextRow)) { rows.append(nextRow) }
                    nextRow += 1
                }
                if !rows.isEmpty {
                    batch = image.songs(atRows: rows)
                    inBatch = 1
                    return (batch[0].id, batch[0])
                }
            }
            batch = []
            return rest.next()
        }
    }

    /// Tables are equal when they hold the same songs, whatever holds them: two states sharing
    /// one image compare only what their deltas touch.
    public static func == (a: SongTable, b: SongTable) -> Bool {
        guard a.count == b.count else { return false }
        if a.image == nil, b.image == nil { return a.changed == b.changed }
        if let x = a.image, let y = b.image, x === y {
            if a.changed == b.changed && a.removed == b.removed { return true }
            var ids = Set(a.removed)
            ids.formUnion(b.removed)
            ids.formUnion(a.changed.keys)
            ids.formUnion(b.changed.keys)
            return ids.allSatisfy { a[$0] == b[$0] }
        }
        return a.allSatisfy { b[$0.key] == $0.value }
    }

    /// The songs whose value differs between two tables, by id (nil where one lacks it); nil
    /// when they share no image, so only a pass over both can say.
    public func changedIDs(comparedTo other: SongTable) -> Set<SongID>? {
        if image == nil, other.image == nil { return nil }
        guard let x = image, let y = other.image, x === y else { return nil }
        var ids = Set(removed)
        ids.formUnion(other.removed)
        ids.formUnion(changed.keys)
        ids.formUnion(other.changed.keys)
        return ids
    }
}
