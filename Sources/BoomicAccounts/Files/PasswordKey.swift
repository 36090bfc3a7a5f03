import Foundation

/// The key that encrypts every password in the users file (AES-256-GCM), kept in a file of its
/// own (`users.key`, 32 random bytes, mode 0600) beside it.
///
/// Subsonic's token authentication (`t = md5(password + salt)`) needs each password in clear on
/// the server, so a password cannot be stored as a one-way hash. Encrypting it keeps it out of
/// anything that carries the users file without the key file: a copied library folder whose key
/// file was left out, a users file sent along with a bug report, a backup of the users file
/// kept apart from its key. It does not protect against anyone who can read both files (the same
/// user account, root, a backup holding both) nor against the running server, which decrypts a
/// password whenever a client logs in with it.
///
/// Each password is sealed with the account's name as authenticated data, so a sealed password
/// moved to another account does not open.
struct PasswordKey: Sendable {
    static let byteCount = 32

    let bytes: [UInt8]

    /// A new random key (from the system's cryptographic random source, `getrandom(2)`).
    static func random() -> PasswordKey {
        var g = SystemRandomNumberGenerator()
        return PasswordKey(key: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &g) })
    }

    /// The key a key file holds; nil when it holds anything but 32 bytes.
    init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    private init(key: [UInt8]) { bytes = key }

    /// What the users file records of the key that sealed its passwords, so that a wrong key file
    /// is told apart from a damaged password: an HMAC of a fixed text, from which the key cannot be
    /// found.
    var fingerprint: String {
        Hex.encode(Digests.hmacSHA256(Array("boomic users key".utf8), key: bytes).prefix(16))
    }

    /// The password sealed for `name`: nonce, ciphertext and tag, in base64.
    func seal(_ password: String, for name: String) -> String {
        Data(AESGCM.seal(Array(password.utf8), key: bytes, authenticating: Array(name.utf8))).base64EncodedString()
    }

    /// The password sealed for `name`, nil when it does not open (another key, another name, or
    /// damaged bytes).
    func open(_ sealed: String, for name: String) -> String? {
        guard let data = Data(base64Encoded: sealed),
              let clear = AESGCM.open(Array(data), key: bytes, authenticating: Array(name.utf8))
        else { return nil }
        return String(validating: clear, as: UTF8.self)
    }
}
