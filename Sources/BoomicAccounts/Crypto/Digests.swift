/// The digests the accounts need, from the system's libcrypto (OpenSSL 3, `LibCrypto`): Debian
/// keeps it patched, where a vendored copy would be as old as the build.
enum Digests {
    /// MD5: what Subsonic's token authentication is made of (`t = md5(password + salt)`), not
    /// a protection of anything Boomic keeps.
    static func md5(_ bytes: [UInt8]) -> [UInt8] { digest(bytes, LibCrypto.shared.md5()) }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { digest(bytes, LibCrypto.shared.sha256()) }

    /// HMAC-SHA-256 of `bytes` under `key`.
    static func hmacSHA256(_ bytes: [UInt8], key: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.maxSize)
        var length: UInt32 = 0
        let done = key.withUnsafeBytes { k in
            bytes.withUnsafeBytes { b in
                let lib = LibCrypto.shared
                return lib.hmac(lib.sha256(), k.baseAddress, Int32(k.count), b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count,
                                &out, &length)
            }
        }
        // Fails only when libcrypto cannot allocate: there is no answer to give.
        precondition(done != nil, "libcrypto's HMAC failed")
        return Array(out.prefix(Int(length)))
    }

    /// `EVP_MAX_MD_SIZE`.
    private static let maxSize = 64

    private static func digest(_ bytes: [UInt8], _ md: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.maxSize)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { b in LibCrypto.shared.digest(b.baseAddress, b.count, &out, &length, md, nil) }
        precondition(ok == 1, "libcrypto's EVP_Digest failed")
        return Array(out.prefix(Int(length)))
    }
}
