import Foundation

/// The users file as stored (`users.json`): the accounts, each with its sealed password and its
/// API keys' hashes, and the fingerprint of the key that sealed the passwords.
///
/// JSON with sorted keys, so it reads well and diffs cleanly. It holds no secret in clear: each
/// password is sealed with `PasswordKey` and each API key is kept as its SHA-256 alone.
struct UsersFile: Codable, Equatable, Sendable {
    /// The version of this layout; a file of a later version is refused, never rewritten.
    static let currentFormat = 1

    var format = UsersFile.currentFormat
    /// `PasswordKey.fingerprint` of the key the passwords are sealed with.
    var key: String
    var users: [StoredUser] = []

    struct StoredUser: Codable, Equatable, Sendable {
        var name: String
        var created: Date
        /// The password sealed with the key file's key (`PasswordKey.seal`), in base64.
        var password: String
        var keys: [StoredKey] = []
    }

    struct StoredKey: Codable, Equatable, Sendable {
        /// A short random id in hex that names the key in `user key ls` and `rm`.
        var id: String
        var label: String?
        var created: Date
        /// SHA-256 of the key, in hex: the key itself is shown once and never stored.
        var sha256: String
    }

    func index(of name: String) -> Int? {
        let folded = name.lowercased()
        return users.firstIndex { $0.name.lowercased() == folded }
    }

    static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        return e
    }
}

extension UsersFile.StoredUser {
    var user: User {
        User(name: name, created: created, keys: keys.map(\.info))
    }
}

extension UsersFile.StoredKey {
    var info: APIKeyInfo { APIKeyInfo(id: id, label: label, created: created) }
}
