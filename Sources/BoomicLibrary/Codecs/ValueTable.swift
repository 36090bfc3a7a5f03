import BoomicCore
import BoomicStore

/// A raw block of byte strings read in place: a count, n + 1 offsets (u32), then the bytes.
/// The image's paths and each field's distinct values; a value's bytes depend on its field's
/// kind (`encode`), and the reader decodes them the same way. Each value's offsets and bytes are
/// checked against their segments' checksums when read (`ImageBlock`).
struct ValueTable {
    private let block: ImageBlock
    /// Where the values' bytes start in the block.
    private let dataStart: Int
    let count: Int

    init(_ block: ImageBlock, name: String) throws {
        let b = block.bytes
        guard b.count >= 12 else { throw StoreError.image("block \(name) is shorter than its header") }
        block.check(0, 8)
        let n = Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 0, as: UInt32.self)))
        guard n <= (b.count - 12) / 4 else { throw StoreError.image("block \(name): \(n) values cannot fit") }
        count = n
        dataStart = 8 + 4 * (n + 1)
        self.block = block
    }

    /// The bytes of value `i`. Offsets out of order or past the block (which only bytes made to
    /// pass the checksums can hold) read as an empty value, never past the block.
    @inline(__always)
    subscript(i: Int) -> UnsafeRawBufferPointer {
        block.check(8 + 4 * i, 8)
        let start = dataStart + Int(UInt32(littleEndian: block.bytes.loadUnaligned(fromByteOffset: 8 + 4 * i, as: UInt32.self)))
        let end = dataStart + Int(UInt32(littleEndian: block.bytes.loadUnaligned(fromByteOffset: 12 + 4 * i, as: UInt32.self)))
        guard start <= end, end <= block.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        block.check(start, end - start)
        return UnsafeRawBufferPointer(rebasing: block.bytes[start..<end])
    }

    static func bytes(_ values: [[UInt8]]) -> [UInt8] {
        let total = values.reduce(0) { $0 + $1.count }
        var out: [UInt8] = []
        out.reserveCapacity(12 + 4 * values.count + total)
        put(UInt32(values.count), &out)
        put(UInt32(0), &out)
        var end: UInt32 = 0
        put(end, &out)
        for v in values {
            end += UInt32(v.count)
            put(end, &out)
        }
        for v in values { out += v }
        return out
    }

    // MARK: Values by kind

    /// A song's value of a field as bytes, nil when it is the default (nil, 0, false, empty:
    /// what `SongCodec` leaves out too, so the round trip is exact).
    static func encode(_ access: SongFieldSpec.Access, _ s: Song) -> [UInt8]? {
        switch access {
        case .text(let get, _):
            return get(s).map { Array($0.utf8) }
        case .number(let get, _, let optional):
            guard let v = get(s), optional || v != 0 else { return nil }
            return le(UInt64(bitPattern: Int64(v)))
        case .decimal(let get, _, let optional):
            guard let v = get(s), optional || v.bitPattern != 0 else { return nil }
            return le(v.bitPattern)
        case .flag(let get, _):
            return get(s) ? [] : nil
        case .list(let get, _):
            let xs = get(s)
            guard !xs.isEmpty else { return nil }
            var out: [UInt8] = []
            put(UInt32(xs.count), &out)
            for x in xs {
                put(UInt32(x.utf8.count), &out)
                out += x.utf8
            }
            return out
        }
    }

    /// Sets the value these bytes hold (as `encode` wrote them) on a song.
    static func set(_ access: SongFieldSpec.Access, _ b: UnsafeRawBufferPointer, on s: inout Song) {
        switch access {
        case .text(_, let set): set(&s, String(decoding: b, as: UTF8.self))
        case .number(_, let set, _): set(&s, Int(Int64(bitPattern: u64(b))))
        case .decimal(_, let set, _): set(&s, Double(bitPattern: u64(b)))
        case .flag(_, let set): set(&s, true)
        case .list(_, let set): set(&s, list(b))
        }
    }

    /// The value these bytes hold, as `SongField.value(in:)` gives it.
    static func value(_ access: SongFieldSpec.Access, _ b: UnsafeRawBufferPointer) -> FieldValue {
        switch access {
        case .text: .string(String(decoding: b, as: UTF8.self))
        case .number: .int(Int(Int64(bitPattern: u64(b))))
        case .decimal: .double(Double(bitPattern: u64(b)))
        case .flag: .bool(true)
        case .list: .strings(list(b))
        }
    }

    private static func u64(_ b: UnsafeRawBufferPointer) -> UInt64 {
        b.count == 8 ? UInt64(littleEndian: b.loadUnaligned(as: UInt64.self)) : 0
    }

    /// A list's strings; bytes that do not parse (damage the checksums missed) end it early.
    private static func list(_ b: UnsafeRawBufferPointer) -> [String] {
        guard b.count >= 4 else { return [] }
        let n = Int(UInt32(littleEndian: b.loadUnaligned(as: UInt32.self)))
        var out: [String] = []
        out.reserveCapacity(min(n, b.count / 4))
        var at = 4
        for _ in 0..<n {
            guard at + 4 <= b.count else { break }
            let len = Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            at += 4
            guard len <= b.count - at else { break }
            out.append(String(decoding: UnsafeRawBufferPointer(rebasing: b[at..<(at + len)]), as: UTF8.self))
            at += len
        }
        return out
    }

    private static func le(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    private static func put(_ v: UInt32, _ out: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
}
