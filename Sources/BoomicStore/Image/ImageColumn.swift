/// A column of fixed-width unsigned values (1, 2, 4 or 8 bytes, little-endian), one per row,
/// read in place: numbers, dates, flags and string-table codes. A value's segment is checked
/// when it is read; `map` checks the whole block once and reads every value.
///
/// Borrows the image's bytes: valid while the `SnapshotImage` it came from is.
public struct ImageColumn {
    private let block: ImageBlock
    public let width: Int
    public let count: Int

    /// Checks the header against the block's length.
    static func validate(_ b: UnsafeRawBufferPointer, name: String) throws {
        _ = try shape(b, name: name)
    }

    init(_ block: ImageBlock) throws {
        block.check(0, 16)
        (width, count) = try Self.shape(block.bytes, name: block.name)
        self.block = block
    }

    private static func shape(_ b: UnsafeRawBufferPointer, name: String) throws -> (width: Int, count: Int) {
        guard b.count >= 16 else { throw StoreError.image("block \(name) is shorter than its header") }
        let w = Int(SnapshotImage.u32(b, 0))
        let n = SnapshotImage.u64(b, 8)
        guard [1, 2, 4, 8].contains(w), n <= UInt64(b.count - 16), Int(n) * w == b.count - 16 else {
            throw StoreError.image("block \(name): its length is not its count of values")
        }
        return (w, Int(n))
    }

    public subscript(row: Int) -> UInt64 {
        precondition(row >= 0 && row < count, "row \(row) of \(count)")
        block.check(16 + width * row, width)
        return load(row)
    }

    /// Every value as a 32-bit code (truncated: a value past `UInt32.max` is no code a value
    /// table can hold), in row order: one check of the whole block, one tight pass. What a
    /// query reads of a field.
    public func codes() -> [UInt32] {
        block.checkAll()
        guard count > 0, let base = block.bytes.baseAddress else { return [] }
        let values = base + 16, n = count
        return [UInt32](unsafeUninitializedCapacity: n) { out, made in
            switch width {
            case 1: for i in 0..<n { out[i] = UInt32(values.load(fromByteOffset: i, as: UInt8.self)) }
            case 2: for i in 0..<n { out[i] = UInt32(UInt16(littleEndian: values.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))) }
            case 4: for i in 0..<n { out[i] = UInt32(littleEndian: values.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
            default: for i in 0..<n { out[i] = UInt32(truncatingIfNeeded: UInt64(littleEndian: values.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))) }
            }
            made = n
        }
    }

    /// Calls `body` with each row whose code `passes` (indexed by code; a code past its end
    /// does not pass), in row order: one check of the whole block, one tight pass over the values
    /// where they lie. A query's scan of a field, without the copy `codes()` makes: at 1,000,000
    /// rows that copy was 4 MB of fresh memory, 1,000 page faults.
    public func forEachRow(where passes: [Bool], _ body: (Int) -> Void) {
        block.checkAll()
        guard count > 0, let base = block.bytes.baseAddress else { return }
        let values = base + 16, n = count, known = passes.count
        passes.withUnsafeBufferPointer { pass in
            @inline(__always) func visit(_ row: Int, _ code: Int) {
                if code < known && pass[code] { body(row) }
            }
            switch width {
            case 1: for i in 0..<n { visit(i, Int(values.load(fromByteOffset: i, as: UInt8.self))) }
            case 2: for i in 0..<n { visit(i, Int(UInt16(littleEndian: values.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))) }
            case 4: for i in 0..<n { visit(i, Int(UInt32(littleEndian: values.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))) }
            default:
                for i in 0..<n {
                    let v = UInt64(littleEndian: values.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
                    visit(i, Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: v)))
                }
            }
        }
    }

    @inline(__always)
    private func load(_ row: Int) -> UInt64 {
        let at = 16 + width * row
        switch width {
        case 1: return UInt64(block.bytes[at])
        case 2: return UInt64(UInt16(littleEndian: block.bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
        case 4: return UInt64(UInt32(littleEndian: block.bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        default: return UInt64(littleEndian: block.bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
    }
}
