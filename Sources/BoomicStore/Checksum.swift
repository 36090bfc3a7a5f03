import BoomicCore
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

    /// XXH64 of `bytes` with seed 0 (the one implementation lives in BoomicCore).
    static func xxh64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        XXH64.hash(bytes)
    }
}
