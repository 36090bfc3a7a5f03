/// The checksum stored beside each log body and checkpoint: XXH64 (seed 0), as `xxh64:` + 16 hex digits.
///
/// Why XXH64: it catches the damage we care about (torn writes, bit rot, hand edits) and runs at
/// several GB/s, so verifying a 20 MB checkpoint on every open costs a few milliseconds; FNV-1a,
/// one byte at a time, would cost ten times that. It is not a cryptographic hash, and needs not be:
/// the log is not defended against a malicious editor. The `xxh64:` prefix names the algorithm, so
/// a later version can switch without guessing what old rows used.
///
/// The algorithm follows the XXH64 specification (github.com/Cyan4973/xxHash, doc/xxhash_spec.md);
/// tests pin it against the reference implementation's outputs.
enum Checksum {
    static let prefix = "xxh64:"

    /// The stored form of the checksum of `bytes`.
    static func string(of bytes: UnsafeRawBufferPointer) -> String {
        let hex = String(xxh64(bytes), radix: 16)
        return prefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func string(of bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { string(of: $0) }
    }

    static func string(of text: String) -> String {
        var text = text
        return text.withUTF8 { string(of: UnsafeRawBufferPointer($0)) }
    }

    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always)
    private static func round(_ acc: UInt64, _ lane: UInt64) -> UInt64 {
        (acc &+ lane &* p2).rotatedLeft(31) &* p1
    }

    @inline(__always)
    private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }

    /// XXH64 of `bytes` with seed 0.
    static func xxh64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let n = bytes.count
        var i = 0
        var h: UInt64
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        if n >= 32 {
            var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
            while i + 32 <= n {
                v1 = round(v1, word(i))
                v2 = round(v2, word(i + 8))
                v3 = round(v3, word(i + 16))
                v4 = round(v4, word(i + 24))
                i += 32
            }
            h = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
            h = merge(h, v1)
            h = merge(h, v2)
            h = merge(h, v3)
            h = merge(h, v4)
        } else {
            h = p5
        }
        h = h &+ UInt64(n)
        while i + 8 <= n {
            h = (h ^ round(0, word(i))).rotatedLeft(27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            let w = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
            h = (h ^ (w &* p1)).rotatedLeft(23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h = (h ^ (UInt64(bytes[i]) &* p5)).rotatedLeft(11) &* p1
            i += 1
        }
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ r: UInt64) -> UInt64 { (self << r) | (self >> (64 - r)) }
}
