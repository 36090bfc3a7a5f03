import Foundation

/// Appends the primitives of Boomic's binary checkpoint formats to a byte array.
///
/// Integers are LEB128 varints (zigzag for signed ones, so small negatives stay small), doubles
/// their 8 IEEE bytes little-endian (bit-exact: -0.0 and NaN payloads survive), strings a varint
/// byte count then UTF-8. Public so that the glue that checkpoints a whole basis can put its other
/// entities in the same buffer as `SongCodec`'s songs. Read back with `ByteReader`.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    public mutating func byte(_ b: UInt8) {
        bytes.append(b)
    }

    @inline(__always)
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A non-negative count or index.
    @inline(__always)
    public mutating func count(_ n: Int) {
        varint(UInt64(n))
    }

    /// Any `Int`, zigzag-encoded: 0, -1, 1, -2, … become 0, 1, 2, 3, ….
    @inline(__always)
    public mutating func int(_ value: Int) {
        let v = Int64(value)
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    @inline(__always)
    public mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ value: String) {
        var s = value
        s.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func uuid(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
    }

    public mutating func append(contentsOf other: [UInt8]) {
        bytes.append(contentsOf: other)
    }
}
