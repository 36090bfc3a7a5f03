/// AES-256-GCM from the system's libcrypto (`LibCrypto`), in the combined form the users file keeps: the
/// 12-byte nonce, the ciphertext, the 16-byte tag (what swift-crypto's `SealedBox.combined` was,
/// so passwords sealed by earlier builds open).
enum AESGCM {
    static let keyCount = 32, nonceCount = 12, tagCount = 16

    /// `plaintext` sealed under `key` with a fresh random nonce, `aad` authenticated with it.
    static func seal(_ plaintext: [UInt8], key: [UInt8], authenticating aad: [UInt8]) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        let nonce = (0..<nonceCount).map { _ in UInt8.random(in: .min ... .max, using: &g) }
        return seal(plaintext, key: key, nonce: nonce, authenticating: aad)
    }

    /// `seal` with a given nonce: for the tests' known answers; a nonce is never used twice.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating aad: [UInt8]) -> [UInt8] {
        precondition(key.count == keyCount && nonce.count == nonceCount)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: tagCount)
        let ok = withCipher { lib, ctx -> Bool in
            var n: Int32 = 0
            guard lib.encryptInit(ctx, lib.aes256GCM(), nil, key, nonce) == 1,
                  aad.isEmpty || lib.encryptUpdate(ctx, nil, &n, aad, Int32(aad.count)) == 1,
                  plaintext.isEmpty || lib.encryptUpdate(ctx, &ciphertext, &n, plaintext, Int32(plaintext.count)) == 1,
                  lib.encryptFinal(ctx, &tag, &n) == 1
            else { return false }
            return lib.cipherControl(ctx, LibCrypto.gcmGetTag, Int32(tagCount), &tag) == 1
        }
        // Fails only when libcrypto cannot allocate: nothing to seal with.
        precondition(ok, "libcrypto's AES-GCM failed")
        return nonce + ciphertext + tag
    }

    /// The plaintext of `combined`, nil when it does not open: another key, other authenticated
    /// data, or damaged bytes.
    static func open(_ combined: [UInt8], key: [UInt8], authenticating aad: [UInt8]) -> [UInt8]? {
        guard key.count == keyCount, combined.count >= nonceCount + tagCount else { return nil }
        let nonce = Array(combined.prefix(nonceCount))
        let ciphertext = Array(combined.dropFirst(nonceCount).dropLast(tagCount))
        var tag = Array(combined.suffix(tagCount))
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        var scratch = [UInt8](repeating: 0, count: tagCount)
        let ok = withCipher { lib, ctx -> Bool in
            var n: Int32 = 0
            return lib.decryptInit(ctx, lib.aes256GCM(), nil, key, nonce) == 1
                && (aad.isEmpty || lib.decryptUpdate(ctx, nil, &n, aad, Int32(aad.count)) == 1)
                && (ciphertext.isEmpty || lib.decryptUpdate(ctx, &plaintext, &n, ciphertext, Int32(ciphertext.count)) == 1)
                && lib.cipherControl(ctx, LibCrypto.gcmSetTag, Int32(tagCount), &tag) == 1
                // The tag is checked here: anything but 1 is a box that does not open.
                && lib.decryptFinal(ctx, &scratch, &n) == 1
        }
        return ok ? plaintext : nil
    }

    private static func withCipher(_ body: (LibCrypto, OpaquePointer?) -> Bool) -> Bool {
        let lib = LibCrypto.shared
        guard let ctx = lib.cipherNew() else { return false }
        defer { lib.cipherFree(ctx) }
        return body(lib, ctx)
    }
}
