/// XXH64, Yann Collet's 64-bit non-cryptographic hash (xxHash specification v0.1.1).
///
/// Chosen over SHA-256 because import speed matters: it hashes several GB/s in pure Swift, so a
/// fingerprint sample or a cover picture costs microseconds. It is not collision-resistant against
/// an attacker, which a personal music library does not need; accidental collisions among 10⁵
/// pictures have a probability around 10⁻⁹.
public enum XXH64 {
    private static let p1: UInt64 = 11_400_714_785_074_694_791
    private static let p2: UInt64 = 14_029_467_366_897_019_727
    private static let p3: UInt64 = 1_609_587_929_392_839_161
    private static let p4: UInt64 = 9_650_029_242_287_828_579
    private static let p5: UInt64 = 2_870_177_450_012_600_261

    /// The hash of `bytes` with `seed`.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return finish(seed &+ p5, length: 0) }
        var offset = 0
        var h: UInt64
        if count >= 32 {
            var v1 = seed &+ p1 &+ p2
            var v2 = seed &+ p2
            var v3 = seed
            var v4 = seed &- p1
            while offset + 32 <= count {
                v1 = round(v1, lane(base, offset))
                v2 = round(v2, lane(base, offset + 8))
                v3 = round(v3, lane(base, offset + 16))
                v4 = round(v4, lane(base, offset + 24))
                offset += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(h, v1)
            h = merge(h, v2)
            h = merge(h, v3)
            h = merge(h, v4)
        } else {
            h = seed &+ p5
        }
        h = h &+ UInt64(count)
        while offset + 8 <= count {
            h ^= round(0, lane(base, offset))
            h = rotl(h, 27) &* p1 &+ p4
            offset += 8
        }
        if offset + 4 <= count {
            let k = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            h ^= k &* p1
            h = rotl(h, 23) &* p2 &+ p3
            offset += 4
        }
        while offset < count {
            h ^= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &* p5
            h = rotl(h, 11) &* p1
            offset += 1
        }
        return avalanche(h)
    }

    /// The hash of `bytes` as 16 lower-case hex digits.
    public static func hex(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> String {
        hexString(hash(bytes, seed: seed))
    }

    /// The hash of `bytes` as 16 lower-case hex digits.
    public static func hex(_ bytes: [UInt8], seed: UInt64 = 0) -> String {
        bytes.withUnsafeBytes { hex($0, seed: seed) }
    }

    @inline(__always)
    private static func lane(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 {
        (x << r) | (x >> (64 - r))
    }

    @inline(__always)
    private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    @inline(__always)
    private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }

    private static func finish(_ h: UInt64, length: Int) -> UInt64 {
        avalanche(h &+ UInt64(length))
    }

    @inline(__always)
    private static func avalanche(_ h0: UInt64) -> UInt64 {
        var h = h0
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}

/// `value` as `2 × MemoryLayout<T>.size` lower-case hex digits.
public func hexString<T: FixedWidthInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, MemoryLayout<T>.size * 2 - digits.count)) + digits
}

/// `bytes` as lower-case hex, two digits per byte.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let table = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for b in bytes {
        out.append(table[Int(b >> 4)])
        out.append(table[Int(b & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
}
