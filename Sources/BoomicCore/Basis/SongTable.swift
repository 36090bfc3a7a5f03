import HashTreeCollections

/// The songs of a basis: the rows of an image, read where they lie, overlaid by a persistent
/// delta of the songs added, changed or removed since (storage.md, "The basis: image + delta").
///
/// Without an image every song is in the delta, as a basis replayed from the log holds them.
/// Applying a transaction changes only the delta, so it costs O(change) whatever the library's
/// size; reading a song looks in the delta, then materialises the image's row. An update of an
/// image's song is kept as its patch (`patched`) until the song is read, so opening a library
/// folds its tail without materialising a song. Iteration gives the image's rows that the delta
/// does not shadow, in path order, then the delta's songs.
public struct SongTable: Sendable, Sequence {
    public typealias Element = (key: SongID, value: Song)

    /// The checkpoint's songs, nil when the basis was built without one.
    public let image: (any SongImage)?
    /// Songs added or changed since the image (every song, when there is none).
    public private(set) var changed: TreeDictionary<SongID, Song>
    /// Songs of the image removed since (never an id that `changed` holds).
    public private(set) var removed: TreeSet<SongID>
    /// Songs of the image updated since and not yet read: their patches, in the order applied
    /// (never an id that `changed` or `removed` holds). Kept in order rather than merged: a later
    /// patch of a field replaces an earlier one's value. An id is kept without looking for its
    /// row (at 1,000,000 songs each look-up faults in a segment or two of the id columns), so an
    /// update of a song the image lacks (one gone before the checkpoint, which an update changes
    /// nothing of) is kept too, and no read finds it: every read starts from the image's row.
    public private(set) var patched: TreeDictionary<SongID, [SongPatch]>
    public private(set) var count: Int

    public init() {
        image = nil
        changed = [:]
        removed = []
        patched = [:]
        count = 0
    }

    /// A table holding exactly these songs, without an image.
    public init(_ songs: TreeDictionary<SongID, Song>) {
        image = nil
        changed = songs
        removed = []
        patched = [:]
        count = songs.count
    }

    /// The songs of an image, unchanged.
    public init(image: any SongImage) {
        self.image = image
        changed = [:]
        removed = []
        patched = [:]
        count = image.rowCount
    }

    public var isEmpty: Bool { count == 0 }

    /// Whether the delta holds anything: a song changed, added or removed since the image (without
    /// an image, any song at all).
    public var hasDelta: Bool { !changed.isEmpty || !removed.isEmpty || !patched.isEmpty }

    public subscript(id: SongID) -> Song? {
        if let s = changed[id] { return s }
        guard let image, !removed.contains(id), let row = image.row(of: id) else { return nil }
        return Self.applying(patched[id], to: image.song(atRow: row))
    }

    /// Each patch kept only where it changes the song, as applying it at once keeps an update
    /// only then (`DataBasis.apply`): a title made NFD from NFC is equal, and stays NFC.
    private static func applying(_ patches: [SongPatch]?, to song: Song) -> Song {
        guard let patches else { return song }
        return patches.reduce(song) { s, p in
            let new = s.applying(p)
            return new == s ? s : new
        }
    }

    /// The songs of the delta: those added or changed, and the image's songs patched, these read
    /// now (in one pass, in row order).
    public var deltaSongs: [Song] { deltaSongs { _, _ in true } }

    /// The songs of the delta a reader needs: those added or changed, and the image's songs
    /// patched for which `reading` says so (given the id and its patches), these read now.
    public func deltaSongs(patchedWhere reading: (SongID, [SongPatch]) -> Bool) -> [Song] {
        Array(changed.values) + patchedSongs(where: reading)
    }

    /// The image's songs patched (those `reading` accepts), read now.
    private func patchedSongs(where reading: (SongID, [SongPatch]) -> Bool = { _, _ in true }) -> [Song] {
        guard let image, !patched.isEmpty else { return [] }
        let rows = patched.compactMap { reading($0.key, $0.value) ? image.row(of: $0.key) : nil }.sorted()
        return image.songs(atRows: rows).map { Self.applying(patched[$0.id], to: $0) }
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
        for s in image.songs(atRows: unique) { out[s.id] = Self.applying(patched[s.id], to: s) }
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
        !hasDelta || (changed[id] == nil && !removed.contains(id) && patched[id] == nil)
    }

    /// Adds or replaces a song; says whether it replaced one. Reads no image row: a
    /// transaction's cost stays its own size.
    @discardableResult
    public mutating func insert(_ song: Song) -> Bool {
        let id = song.id
        let existed: Bool
        if changed[id] != nil {
            existed = true
        } else if patched.removeValue(forKey: id) != nil {
            // Patches may name a song the image lacks (`patched`).
            existed = image?.row(of: id) != nil
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
        patched[song.id] = nil
        changed[song.id] = song
    }

    /// Records an update of a song of the image that the delta does not hold or holds only as
    /// patches, without reading it or looking for its row (`patched`). An update of a song the
    /// delta removed changes nothing, as an update of a song that is gone does.
    mutating func patch(_ id: SongID, with patch: SongPatch) {
        if patched[id] != nil {
            patched[id]!.append(patch)
            return
        }
        guard image != nil, changed[id] == nil, !removed.contains(id) else { return }
        patched[id] = [patch]
    }

    /// Removes a song; says whether there was one.
    @discardableResult
    public mutating func remove(_ id: SongID) -> Bool {
        let inImage = !removed.contains(id) && image?.row(of: id) != nil
        patched[id] = nil
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
        for s in patchedSongs() { body(s) }
    }

    public struct Iterator: IteratorProtocol {
        private let table: SongTable
        private var nextRow = 0
        private var batch: [Song] = []
        private var inBatch = 0
        private var rest: TreeDictionary<SongID, Song>.Iterator
        /// The patched songs, read when the iteration reaches them.
        private var patchedRest: [Song]?
        private var nextPatched = 0

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
            if let next = rest.next() { return next }
            if patchedRest == nil { patchedRest = table.patchedSongs() }
            guard let songs = patchedRest, nextPatched < songs.count else { return nil }
            defer { nextPatched += 1 }
            return (songs[nextPatched].id, songs[nextPatched])
        }
    }

    /// Tables are equal when they hold the same songs, whatever holds them: two states sharing
    /// one image compare only what their deltas touch.
    public static func == (a: SongTable, b: SongTable) -> Bool {
        guard a.count == b.count else { return false }
        if a.image == nil, b.image == nil { return a.changed == b.changed }
        if let x = a.image, let y = b.image, x === y {
            if a.changed == b.changed && a.removed == b.removed && a.patched == b.patched { return true }
            return a.deltaIDs(b).allSatisfy { a[$0] == b[$0] }
        }
        return a.allSatisfy { b[$0.key] == $0.value }
    }

    /// The songs whose value differs between two tables, by id (nil where one lacks it); nil
    /// when they share no image, so only a pass over both can say.
    public func changedIDs(comparedTo other: SongTable) -> Set<SongID>? {
        if image == nil, other.image == nil { return nil }
        guard let x = image, let y = other.image, x === y else { return nil }
        return deltaIDs(other)
    }

    /// The ids either table's delta names.
    private func deltaIDs(_ other: SongTable) -> Set<SongID> {
        var ids = Set(removed)
        ids.formUnion(other.removed)
        ids.formUnion(changed.keys)
        ids.formUnion(other.changed.keys)
        ids.formUnion(patched.keys)
        ids.formUnion(other.patched.keys)
        return ids
    }
}
