import BoomicCore
import BoomicStore
import Dispatch
import Foundation
import Synchronization

/// Writes songs as the blocks of a snapshot image (storage.md, "The image"): the rows in path
/// order (by bytes), their ids and the permutation that sorts them, the paths, and for every
/// field of the field table that any song sets, a table of its distinct values and a column
/// of each row's code into it. Adding a field to the table adds its column here untouched.
enum ImageSongsWriter {
    /// The blocks of `songs` added to `image`.
    static func write(_ songs: [Song], into image: inout ImageWriter) throws {
        // Rows in path order by bytes, so a folder's songs are neighbours (a walk by folder reads
        // the image in order) and a path prefix is one range.
        let keyed = songs.map { (Array($0.path.utf8), $0) }.sorted { $0.0.lexicographicallyPrecedes($1.0) || ($0.0 == $1.0 && $0.1.id < $1.1.id) }
        let rows = keyed.map(\.1)
        var ids: [UInt8] = []
        ids.reserveCapacity(16 * rows.count)
        for s in rows { withUnsafeBytes(of: s.id.uuid.uuid) { ids.append(contentsOf: $0) } }
        try image.raw(ImageSongs.Names.ids, ids)
        let order = rows.indices.sorted { rows[$0].id < rows[$1].id }
        try image.column(ImageSongs.Names.idOrder, width: 4, order.map(UInt64.init))
        try image.raw(ImageSongs.Names.paths, ValueTable.bytes(keyed.map(\.0)))

        // Each field's table and column is independent of the others: made on all cores.
        let specs = ImageSongs.stored
        let made = Mutex<[Int: (values: [UInt8], width: Int, codes: [UInt64])]>([:])
        DispatchQueue.concurrentPerform(iterations: specs.count) { i in
            if let column = Self.column(specs[i], rows) { made.withLock { $0[i] = column } }
        }
        let columns = made.withLock { $0 }
        for (i, spec) in specs.enumerated() {
            guard let c = columns[i] else { continue }
            try image.raw(ImageSongs.Names.values(spec), c.values)
            try image.column(ImageSongs.Names.codes(spec), width: c.width, c.codes)
        }
    }

    /// A field's distinct values (in order of first use) and each row's code; the code one past
    /// the last value is the default. Nil when no song sets the field: the image then has no
    /// blocks for it and every row reads the default.
    private static func column(_ spec: SongFieldSpec, _ rows: [Song]) -> (values: [UInt8], width: Int, codes: [UInt64])? {
        var index: [[UInt8]: UInt64] = [:]
        var values: [[UInt8]] = []
        var codes = [UInt64](repeating: 0, count: rows.count)
        var pending: [Int] = [] // rows holding the default, coded once the count is known
        for (r, s) in rows.enumerated() {
            guard let bytes = ValueTable.encode(spec.access, s) else { pending.append(r); continue }
            if let c = index[bytes] {
                codes[r] = c
            } else {
                index[bytes] = UInt64(values.count)
                codes[r] = UInt64(values.count)
                values.append(bytes)
            }
        }
        guard !values.isEmpty else { return nil }
        let absent = UInt64(values.count)
        for r in pending { codes[r] = absent }
        let width = absent < 1 << 8 ? 1 : absent < 1 << 16 ? 2 : 4
        return (ValueTable.bytes(values), width, codes)
    }
}
