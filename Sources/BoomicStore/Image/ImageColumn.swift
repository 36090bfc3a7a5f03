/// A column of fixed-width unsigned values (1, 2, 4 or 8 bytes, little-endian), one per row,
/// read in place: numbers, dates, flags and string-table codes.
///
/// Borrows the image's bytes: valid while the `SnapshotImage` it came from is.
public struct ImageColumn {
    private let values: UnsafeRawBufferPointer
    public let width: Int
    public let count: Int

    init(checking b: UnsafeRawBufferPointer, name: String) throws {
        self = try Self(b, name: name)
    }

    init(_ b: UnsafeRawBufferPointer, name: String) throws {
        guard b.count >= 16 else { throw StoreError.image("block \(name) is shorter than its header") }
        let w = Int(SnapshotImage.u32(b, 0))
        let n = SnapshotImage.u64(b, 8)
        guard [1, 2, 4, 8].contains(w), n <= UInt64(b.count - 16), Int(n) * w == b.count - 16 else {
            throw StoreError.image("block \(name): its length is not its count of values")
        }
        width = w
        count = Int(n)
        values = UnsafeRawBufferPointer(rebasing: b[16...])
    }

    public subscript(row: Int) -> UInt64 {
        precondition(row >= 0 && row < count, "row \(row) of \(count)")
        switch width {
        case 1: return UInt64(values[row])
        case 2: return UInt64(UInt16(littleEndian: values.loadUnaligned(fromByteOffset: 2 * row, as: UInt16.self)))
        case 4: return UInt64(UInt32(littleEndian: values.loadUnaligned(fromByteOffset: 4 * row, as: UInt32.self)))
        default: return UInt64(littleEndian: values.loadUnaligned(fromByteOffset: 8 * row, as: UInt64.self))
        }
    }
}
