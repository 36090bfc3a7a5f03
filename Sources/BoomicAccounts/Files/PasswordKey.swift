import Crypto
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

    let key: SymmetricKey

    /// A new random key (from the system's cryptographic random source).
    static func random() -> PasswordKey {
        PasswordKey(key: SymmetricKey(size: .bits256))
    }

    /// The key a key file holds; nil when it holds anything but 32 bytes.
    init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        key = SymmetricKey(data: bytes)
    }

    private init(key: SymmetricKey) { self.key = key }

    var bytes: [UInt8] { key.withUnsafeBytes { Array($0) } }

    /// What the users file records of the key that sealed its passwords, so that a wrong key file
    /// is told apart from a damaged password: an HMAC of a fixed text, from which the key cannot be
    /// found.
    var fingerprint: String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("boomic users key".utf8), using: key)
        return Hex.encode(Array(mac).prefix(16))
    }

    /// The password sealed for `name`: nonce, ciphertext and tag, in base64.
    func seal(_ password: String, for name: String) throws -> String {
        let box = try AES.GCM.seal(Array(password.utf8), using: key, authenticating: Array(name.utf8))
        // The combined form exists whenever the nonce is the default 12 bytes, as here.
        return box.combined!.base64EncodedString()
    }

    /// The password sealed for `name`, nil when it does not open (another key, another name, or
    /// damaged bytes).
    func open(_ sealed: String, for name: String) -> String? {
        guard let data = Data(base64Encoded: sealed),
              let box = try? AES.GCM.SealedBox(combined: data),
              let clear = try? AES.GCM.open(box, using: key, authenticating: Array(name.utf8))
        else { return nil }
        return String(validating: clear, as: UTF8.self)
    }
}
