import BoomicSystem
import Foundation
import Glibc

/// Adding, removing and changing accounts and their API keys.
extension Accounts {
    /// Adds an account; the first one also makes the key file.
    @discardableResult
    public func add(name: String, password: String, now: Date = Date()) throws(AccountError) -> User {
        try Self.check(name: name)
        try Self.check(password: password)
        return try change { file, key throws(AccountError) in
            if let i = file.index(of: name) { throw .userExists(file.users[i].name) }
            let stored = UsersFile.StoredUser(name: name, created: Self.seconds(now), password: key.seal(password, for: name))
            file.users.append(stored)
            return stored.user
        }
    }

    /// Removes an account and its API keys; returns it as it was.
    @discardableResult
    public func remove(name: String) throws(AccountError) -> User {
        try change { file, _ throws(AccountError) in
            guard let i = file.index(of: name) else { throw .unknownUser(name) }
            return file.users.remove(at: i).user
        }
    }

    /// Replaces an account's password (its API keys stay).
    public func setPassword(name: String, password: String) throws(AccountError) {
        try Self.check(password: password)
        try change { file, key throws(AccountError) in
            guard let i = file.index(of: name) else { throw .unknownUser(name) }
            file.users[i].password = key.seal(password, for: file.users[i].name)
        }
    }

    /// Makes an API key for an account: the key is in the answer and nowhere else (the users file
    /// keeps its SHA-256).
    public func addKey(to name: String, label: String? = nil, now: Date = Date()) throws(AccountError) -> NewAPIKey {
        let label = label.flatMap { $0.isEmpty ? nil : $0 }
        if let label { try Self.check(label: label) }
        return try change { file, _ throws(AccountError) in
            guard let i = file.index(of: name) else { throw .unknownUser(name) }
            let taken = Set(file.users.flatMap { $0.keys.map(\.id) })
            var id: String
            repeat { id = Hex.encode(Self.randomBytes(4)) } while taken.contains(id)
            let secret = "boomic_" + Self.base64URL(Self.randomBytes(32))
            let stored = UsersFile.StoredKey(
                id: id, label: label, created: Self.seconds(now),
                sha256: Hex.encode(Digests.sha256(Array(secret.utf8))))
            file.users[i].keys.append(stored)
            return NewAPIKey(key: secret, info: stored.info, user: file.users[i].name)
        }
    }

    /// An account's API keys, in the order they were made.
    public func keys(of name: String) throws(AccountError) -> [APIKeyInfo] {
        guard let file = try read(), let i = file.index(of: name) else { throw .unknownUser(name) }
        return file.users[i].keys.map(\.info)
    }

    /// Revokes an API key of an account (its id in either case); returns what it was.
    @discardableResult
    public func removeKey(of name: String, id: String) throws(AccountError) -> APIKeyInfo {
        try change { file, _ throws(AccountError) in
            guard let i = file.index(of: name) else { throw .unknownUser(name) }
            guard let k = file.users[i].keys.firstIndex(where: { $0.id == id.lowercased() }) else {
                throw .unknownKey(user: file.users[i].name, id: id)
            }
            return file.users[i].keys.remove(at: k).info
        }
    }

    // MARK: Rules

    /// A name a login can type and every listing can show: 1 to 64 letters, digits, `.`, `_`,
    /// `-` and `@` (an e-mail address is a name), not starting with `-` (it would read as an
    /// option).
    static func check(name: String) throws(AccountError) {
        if name.isEmpty { throw .invalidName(name, reason: "it is empty") }
        if name.count > 64 { throw .invalidName(name, reason: "it is longer than 64 characters") }
        if name.hasPrefix("-") { throw .invalidName(name, reason: "it starts with '-'") }
        if let bad = name.first(where: { !($0.isLetter || $0.isNumber || "._-@".contains($0)) }) {
            throw .invalidName(name, reason: "it holds '\(bad.unicodeScalars.first!.escaped(asASCII: true))'; use letters, digits, '.', '_', '-' and '@'")
        }
    }

    static func check(password: String) throws(AccountError) {
        if password.isEmpty { throw .emptyPassword }
    }

    static func check(label: String) throws(AccountError) {
        if label.count > 100 || label.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw .invalidLabel(label)
        }
    }

    // MARK: Changing the files

    /// Runs `body` on the users file under the accounts' lock and writes what it left, whole and
    /// mode 0600. Makes the key file first when there is none and no account needs the old one.
    func change<R>(_ body: (inout UsersFile, PasswordKey) throws(AccountError) -> R) throws(AccountError) -> R {
        try LibCrypto.require()
        let lock = try openKeyFile()
        do {
            try lock.lock(.exclusive)
        } catch {
            throw .system(error)
        }
        defer { try? lock.close() }
        guard let key = try readKey() else { throw .keyMissing(keyFile: keyPath, usersFile: usersPath) }
        var file = try read() ?? UsersFile(key: key.fingerprint)
        // A users file with no account needs no particular key.
        if file.users.isEmpty { file.key = key.fingerprint }
        guard file.key == key.fingerprint else { throw .keyMismatch(keyFile: keyPath, usersFile: usersPath) }
        let result = try body(&file, key)
        do {
            let data = try UsersFile.encoder().encode(file)
            try AtomicFile.write(data, to: usersPath, mode: Self.mode)
        } catch let error as SystemError {
            throw .system(error)
        } catch {
            throw .damaged(path: usersPath, detail: "it could not be encoded: \(error)")
        }
        return result
    }

    /// The key file, opened for its lock; made (32 random bytes, mode 0600) when there is none
    /// and the users file holds no account, whose password would need the lost key.
    private func openKeyFile() throws(AccountError) -> FileDescriptor {
        while true {
            do {
                return try FileDescriptor(path: keyPath, flags: O_RDONLY)
            } catch where error.isNotFound {
                // A writer makes the key file before it writes an account: with accounts read,
                // a key file missing now is missing indeed.
                if try !(read()?.users.isEmpty ?? true) {
                    if FileManager.default.fileExists(atPath: keyPath) { continue }
                    throw .keyMissing(keyFile: keyPath, usersFile: usersPath)
                }
            } catch {
                throw .system(error)
            }
            try makeKeyFile()
        }
    }

    /// Writes a new key under a temporary name and links it into place, so that the key file
    /// appears with its 32 bytes or not at all; when another process made one meanwhile, theirs
    /// stays.
    private func makeKeyFile() throws(AccountError) {
        // A name of this writer's own: another process or thread may be making one at once.
        let tmp = keyPath + ".\(getpid())-\(Hex.encode(Self.randomBytes(4))).tmp"
        do {
            try? SystemCall.unlink(tmp)
            let file = try FileDescriptor(path: tmp, flags: O_WRONLY | O_CREAT | O_EXCL, mode: Self.mode)
            try file.setPermissions(Self.mode)
            try file.write(PasswordKey.random().bytes)
            try file.sync()
            try file.close()
            do {
                try SystemCall.link(tmp, to: keyPath)
            } catch where error.isExisting {}
            try? SystemCall.unlink(tmp)
            try SystemCall.syncDirectory(folder)
        } catch {
            try? SystemCall.unlink(tmp)
            throw .system(error)
        }
    }

    /// Times in the users file are whole seconds, as its ISO 8601 dates keep them.
    static func seconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &g) }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
