import BoomicCore
import BoomicStore
import Foundation

/// The songs of a snapshot image, read where they lie (`SongImage`): a row's song is made from
/// one value a field when asked for, and a query reads a field's codes and distinct values
/// without making any.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`, and the buffers point
/// into `image.bytes`, which this object keeps alive and which nothing writes; the marks of the
/// segments checked are atomic (`SnapshotImage`).
final class ImageSongs: SongImage, @unchecked Sendable {
    /// The blocks' names.
    enum Names {
        static let ids = "songs.ids"
        static let idOrder = "songs.ids.order"
        static let paths = "songs.paths"
        static let lists = "lists"
        static func values(_ spec: SongFieldSpec) -> String { "field.\(spec.name).values" }
        static func codes(_ spec: SongFieldSpec) -> String { "field.\(spec.name)" }
    }

    /// The fields a row stores, in table order: every field of the table but the path.
    static let stored: [SongFieldSpec] = SongField.table.filter { if case .bit = $0.checkpoint { true } else { false } }

    /// Each stored field's position in `stored`, by the field's ordinal.
    private static let storedIndex: [SongField: Int] = Dictionary(uniqueKeysWithValues: stored.enumerated().map { ($1.field, $0) })

    /// Each stored field's default value, as `SongField.value(in:)` gives it for a song that
    /// does not set it.
    private static let defaults: [FieldValue] = {
        let blank = Song(id: SongID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), path: "")
        return stored.map { $0.field.value(in: blank) }
    }()

    private struct Column {
        /// Nil when the image has no blocks for the field: every row holds the default.
        var codes: ImageColumn?
        var values: ValueTable?
        var valueCount: Int { values?.count ?? 0 }
    }

    let image: SnapshotImage
    let rowCount: Int
    private let ids: ImageBlock
    private let order: ImageColumn
    private let paths: ValueTable
    /// Every stored field's accessors and column, in `stored`'s order, resolved at the open:
    /// what materialising a song reads, with nothing to resolve or lock per song.
    private let columns: [(access: SongFieldSpec.Access, column: Column)]

    /// Checks every block here, at the open, unless the image checks segments as they are read
    /// (`ImageChecks`): then a command checks only what it reads.
    init(_ image: SnapshotImage) throws {
        if !image.checksOnTouch, let bad = image.damagedBlocks().first { throw StoreError.image("block \(bad.name): \(bad.reason)") }
        self.image = image
        ids = try image.lazyBlock(Names.ids)
        guard ids.count % 16 == 0 else { throw StoreError.image("block \(Names.ids) is not a whole number of ids") }
        rowCount = ids.count / 16
        order = try image.lazyColumn(Names.idOrder)
        guard order.count == rowCount else { throw StoreError.image("block \(Names.idOrder) has \(order.count) rows of \(rowCount)") }
        paths = try ValueTable(image.lazyBlock(Names.paths), name: Names.paths)
        guard paths.count == rowCount else { throw StoreError.image("block \(Names.paths) has \(paths.count) rows of \(rowCount)") }
        // A field this build does not know (a newer build's) would be dropped from every song
        // read here, and from any checkpoint written from them: refused, so the log is replayed.
        let known = Set(Self.stored.flatMap { [Names.codes($0), Names.values($0)] })
        if let foreign = image.entries.first(where: { $0.name.hasPrefix("field.") && !known.contains($0.name) }) {
            throw StoreError.image("holds a field this build does not know (\(foreign.name))")
        }
        // Each column's header is checked here, so a later read never meets a block it cannot
        // parse; a value is checked when it is read.
        let rows = rowCount
        let present = Set(image.entries.map(\.name))
        columns = try Self.stored.map { spec in (spec.access, try Self.column(spec, of: image, present: present, rows: rows)) }
    }

    func id(atRow row: Int) -> SongID {
        ids.check(16 * row, 16)
        return SongID(UUID(uuid: ids.bytes.loadUnaligned(fromByteOffset: 16 * row, as: uuid_t.self)))
    }

    /// Interpolation first. A probe reads a row of `order` and an id; at 1,000,000 songs each of
    /// a bisection's 20 probes lands in a new 4 KiB segment of both, which is checksummed on first
    /// touch, and that is most of what applying a tail of transactions to the image costs. Song
    /// ids are random UUIDs, so an id's leading 8 bytes place it within about √rows of its rank,
    /// and 4–5 probes find it on average (`ImageIDSearchTests`).
    func row(of id: SongID) -> Int? {
        let rows = rowCount
        func row(_ rank: Int) -> Int? {
            let row = Int(order[rank])
            return row < rows ? row : nil // bytes made to pass the checksums
        }
        return Self.search(rows, for: id) { row($0).map(self.id(atRow:)) }.flatMap(row)
    }

    /// The probes by interpolation before a search gallops.
    static let interpolated = 6

    /// The rank of `id` among `count` ids sorted in byte order, read through `idAt(rank)`; nil when
    /// absent, or when `idAt` gives nil (bytes made to pass the checksums).
    ///
    /// Interpolation closes in on an id from one side when the other bound stays far, one rank a
    /// probe at the end; so after `interpolated` probes the search gallops from the bound that
    /// moved last, where the id most likely is, and bisects once it has passed it. Ids another
    /// tool made need not be uniform (`CountingIDSource`'s share their leading bytes); none takes
    /// more than `interpolated` probes and twice a bisection's.
    static func search(_ count: Int, for id: SongID, idAt: (Int) -> SongID?) -> Int? {
        let key = id.leading64
        // The ids of ranks [low, high) lie in [lowKey, highKey] by their leading 8 bytes.
        var low = 0, high = count
        var lowKey: UInt64 = 0, highKey = UInt64.max
        var raisedLow: Bool?
        for _ in 0..<interpolated {
            guard low < high else { return nil }
            guard highKey > lowKey, key >= lowKey, key <= highKey else { break }
            let fraction = Double(key - lowKey) / Double(highKey - lowKey)
            let mid = min(high - 1, low + Int(fraction * Double(high - low)))
            guard let x = idAt(mid) else { return nil }
            if x == id { return mid }
            if x < id { low = mid + 1; lowKey = x.leading64; raisedLow = true } else { high = mid; highKey = x.leading64; raisedLow = false }
        }
        if let up = raisedLow {
            var step = 1
            while low < high {
                let mid = up ? min(high - 1, low + step - 1) : max(low, high - step)
                guard let x = idAt(mid) else { return nil }
                if x == id { return mid }
                if x < id { low = mid + 1 } else { high = mid }
                if (x < id) != up { break }
                step *= 2
            }
        }
        while low < high {
            let mid = (low + high) / 2
            guard let x = idAt(mid) else { return nil }
            if x == id { return mid }
            if x < id { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// Column by column within a chunk of rows: each column's accessors and blocks are taken
    /// once a chunk (a row-by-row loop copies them, with their references, once per value), and
    /// a chunk's songs stay in cache while its columns are set (a column at a time over 6,000
    /// songs of a kilobyte each missed the cache at every song).
    func songs(atRows rows: some Sequence<Int>, reading fields: [SongField]?) -> [Song] {
        let columns = fields.map { Set($0.compactMap { Self.storedIndex[$0] }).sorted().map { self.columns[$0] } } ?? self.columns
        let rows = Array(rows)
        var out = rows.map { Song(id: id(atRow: $0), path: String(decoding: paths[$0], as: UTF8.self)) }
        for start in stride(from: 0, to: rows.count, by: Self.chunk) {
            let chunk = start..<min(start + Self.chunk, rows.count)
            for (access, c) in columns {
                guard let codes = c.codes, let values = c.values else { continue }
                let count = values.count
                for i in chunk {
                    let code = Int(codes[rows[i]])
                    if code < count { ValueTable.set(access, values[code], on: &out[i]) }
                }
            }
        }
        return out
    }

    /// Rows made a chunk at a time: 128 songs' boxes and strings fit a core's cache.
    private static let chunk = 128

    func rows(withPathBytesPrefix prefix: [UInt8]) -> Range<Int>? {
        // Two bisections over the rows' paths, in byte order as the writer sorted them: the
        // first path not below the prefix, then the first after it that neither is below nor
        // starts with it.
        prefix.withUnsafeBytes { want in
            func below(_ row: Int) -> Bool { paths[row].lexicographicallyPrecedes(want) }
            func startsWith(_ row: Int) -> Bool { paths[row].starts(with: want) }
            func first(from low: Int, where passes: (Int) -> Bool) -> Int {
                var low = low, high = rowCount
                while low < high {
                    let mid = (low + high) / 2
                    if passes(mid) { high = mid } else { low = mid + 1 }
                }
                return low
            }
            let start = first(from: 0) { !below($0) }
            return start..<first(from: start) { !below($0) && !startsWith($0) }
        }
    }

    func column(_ field: SongField) -> SongImageColumn? {
        if field == .path {
            return SongImageColumn(valueCount: rowCount, value: { [self] in
                $0 < rowCount ? .string(String(decoding: paths[$0], as: UTF8.self)) : .null
            }, codes: { [rowCount] in (0..<rowCount).map(UInt32.init) }, rows: { [rowCount] passing, body in
                for row in 0..<min(rowCount, passing.count) where passing[row] { body(row) }
            }, forEachValue: { [self] body in
                for row in 0..<rowCount { body(.string(String(decoding: paths[row], as: UTF8.self))) }
                body(.null)
            }, forEachText: { [self] body in
                for row in 0..<rowCount { body(paths[row]) }
            })
        }
        guard let i = Self.storedIndex[field] else { return nil }
        let access = Self.stored[i].access, fallback = Self.defaults[i], count = columns[i].column.valueCount
        var forEachText: (@Sendable (_ body: (UnsafeRawBufferPointer) -> Void) -> Void)?
        if Self.isText(access) {
            forEachText = { [self] body in
                guard let table = columns[i].column.values else { return }
                for code in 0..<count { body(table[code]) }
            }
        }
        return SongImageColumn(valueCount: count, value: { [self] code in
            guard code < count, let v = columns[i].column.values else { return fallback }
            return ValueTable.value(access, v[code])
        }, codes: { [self] in
            columns[i].column.codes?.codes() ?? [UInt32](repeating: 0, count: rowCount)
        }, rows: { [self] passing, body in
            if let codes = columns[i].column.codes {
                codes.forEachRow(where: passing, body)
            } else if passing.first == true {
                // No blocks for the field: every row holds the default, code 0 of no values.
                for row in 0..<rowCount { body(row) }
            }
        }, forEachValue: { [self] body in
            if let table = columns[i].column.values {
                for code in 0..<count { body(ValueTable.value(access, table[code])) }
            }
            body(fallback)
        }, forEachText: forEachText)
    }

    private static func isText(_ access: SongFieldSpec.Access) -> Bool {
        if case .text = access { true } else { false }
    }

    /// A field's column, or an empty one (every row the default) when the image has no blocks
    /// for it.
    ///
    /// `present`: the names of the image's blocks, gathered once: looking each field's name up
    /// among the entries, the name spelt anew for each, cost 2 M instructions an open.
    private static func column(_ spec: SongFieldSpec, of image: SnapshotImage, present: Set<String>, rows: Int) throws -> Column {
        let name = Names.codes(spec)
        guard present.contains(name) else { return Column() }
        let codes = try image.lazyColumn(name)
        let valuesName = Names.values(spec)
        let values = try ValueTable(image.lazyBlock(valuesName), name: valuesName)
        // A code past the values reads as the default (every reader checks it against the count): the
        // checksums vouch for the bytes, so no pass over every row is spent on it.
        guard codes.count == rows else { throw StoreError.image("block \(name) has \(codes.count) rows of \(rows)") }
        return Column(codes: codes, values: values)
    }
}

extension SongID {
    /// The id's first 8 bytes as a number: the ids' byte order, coarsened, which `ImageSongs`
    /// interpolates on.
    var leading64: UInt64 {
        withUnsafeBytes(of: uuid.uuid) { $0.loadUnaligned(as: UInt64.self).bigEndian }
    }
}
