/// Sorted keys (u32: string-table codes or numbers), each with a sorted run of row numbers, read
/// in place: the index that narrows a query to the rows of an album, an artist, a tag or a value.
///
/// Layout: key count (u32), padding (u32), the keys, count + 1 offsets into the rows, the rows.
/// Borrows the image's bytes: valid while the `SnapshotImage` it came from is.
public struct ImagePostings {
    private let keys: UnsafeRawBufferPointer
    private let offsets: UnsafeRawBufferPointer
    private let rowBytes: UnsafeRawBufferPointer
    public let count: Int

    /// Checks the structure: keys increasing, offsets increasing up to the rows there are, each
    /// key's rows increasing.
    init(checking b: UnsafeRawBufferPointer, name: String) throws {
        self = try Self(b, name: name)
        for i in 0..<count {
            if i > 0, key(i - 1) >= key(i) { throw StoreError.image("block \(name): key \(i) is out of order") }
            let (start, end) = (bound(i), bound(i + 1))
            guard start <= end, end <= rowBytes.count / 4 else { throw StoreError.image("block \(name): key \(i)'s rows lie outside it") }
            for r in start..<end where r > start && row(r - 1) >= row(r) {
                throw StoreError.image("block \(name): key \(i)'s rows are out of order")
            }
        }
        guard bound(0) == 0, bound(count) == rowBytes.count / 4 else { throw StoreError.image("block \(name): rows not accounted for") }
    }

    init(_ b: UnsafeRawBufferPointer, name: String) throws {
        guard b.count >= 12 else { throw StoreError.image("block \(name) is shorter than its header") }
        let n = Int(SnapshotImage.u32(b, 0))
        guard n <= (b.count - 12) / 8 else { throw StoreError.image("block \(name): \(n) keys cannot fit") }
        count = n
        keys = UnsafeRawBufferPointer(rebasing: b[8..<(8 + 4 * n)])
        offsets = UnsafeRawBufferPointer(rebasing: b[(8 + 4 * n)..<(12 + 8 * n)])
        rowBytes = UnsafeRawBufferPointer(rebasing: b[(12 + 8 * n)...])
        guard rowBytes.count % 4 == 0 else { throw StoreError.image("block \(name): its rows are not whole") }
    }

    public func key(_ i: Int) -> UInt32 { UInt32(littleEndian: keys.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
    private func bound(_ i: Int) -> Int { Int(SnapshotImage.u32(offsets, 4 * i)) }
    private func row(_ r: Int) -> UInt32 { UInt32(littleEndian: rowBytes.loadUnaligned(fromByteOffset: 4 * r, as: UInt32.self)) }

    /// The rows filed under `key`, in order; empty when the key is not there. A binary search.
    public func rows(of key: UInt32) -> [UInt32] {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            let k = self.key(mid)
            if k == key { return (bound(mid)..<bound(mid + 1)).map(row) }
            if k < key { low = mid + 1 } else { high = mid }
        }
        return []
    }
}
