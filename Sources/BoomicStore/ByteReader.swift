import Foundation

/// Reads what `ByteWriter` wrote, checking every length against the bytes left.
///
/// Checkpoints are read from disk, where they may be truncated or damaged: every read throws
/// `StoreError.badEncoding` rather than reading past the end or trapping, whatever the input.
/// It borrows the buffer it reads: use it only inside the `withUnsafeBytes` that made it.
public struct ByteReader {
    private let buffer: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    public private(set) var offset = 0

    public init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    /// Bytes not read yet.
    public var remaining: Int { buffer.count - offset }

    public var isAtEnd: Bool { offset == buffer.count }

    @inline(__always)
    public mutating func byte() throws -> UInt8 {
        guard offset < buffer.count else { throw Self.truncated(offset) }
        defer { offset += 1 }
        return buffer[offset]
    }

    @inline(__always)
    public mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count else { throw Self.truncated(offset) }
            let b = buffer[offset]
            offset += 1
            // The tenth byte may carry only the top bit of a UInt64; more is not a varint we wrote.
            guard shift < 63 || (shift == 63 && b <= 1) else {
                throw StoreError.badEncoding("a number at byte \(offset - 1) is too long")
            }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    /// A count or index, at most `limit` (a bound known from the data, so a damaged count cannot
    /// make the caller reserve memory or loop for longer than the input allows).
    @inline(__always)
    public mutating func count(atMost limit: Int) throws -> Int {
        let at = offset
        let v = try varint()
        guard v <= UInt64(max(0, limit)) else {
            throw StoreError.badEncoding("a count at byte \(at) is \(v), more than the \(limit) possible")
        }
        return Int(v)
    }

    @inline(__always)
    public mutating func int() throws -> Int {
        let v = try varint()
        return Int(Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
    }

    @inline(__always)
    public mutating func double() throws -> Double {
        guard remaining >= 8 else { throw Self.truncated(offset) }
        defer { offset += 8 }
        return Double(bitPattern: UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    /// The next `n` bytes, borrowed from the buffer.
    @inline(__always)
    public mutating func bytes(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, remaining >= n else { throw Self.truncated(offset) }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + n)])
    }

    /// A string; bytes that are not UTF-8 are repaired (U+FFFD) rather than rejected, as Swift does.
    @inline(__always)
    public mutating func string() throws -> String {
        let n = try count(atMost: remaining)
        return String(decoding: try bytes(n), as: UTF8.self)
    }

    public mutating func uuid() throws -> UUID {
        guard remaining >= 16 else { throw Self.truncated(offset) }
        defer { offset += 16 }
        return UUID(uuid: buffer.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }

    private static func truncated(_ offset: Int) -> StoreError {
        .badEncoding("the data ends early, at byte \(offset)")
    }
}
