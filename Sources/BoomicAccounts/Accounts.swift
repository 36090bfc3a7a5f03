import BoomicSystem
import Foundation
import Glibc
import Synchronization

/// The accounts of a library's network fronts, kept outside its log in two files beside
/// `library.sqlite`:
///
/// - `users.json` (mode 0600): each account's name, its password sealed with AES-256-GCM, and
///   the SHA-256 of each of its API keys (`UsersFile`);
/// - `users.key` (mode 0600): the 32 random bytes that seal the passwords (`PasswordKey`).
///
/// Accounts are not the library's facts (DESIGN §1): `rollback` and `undo` never touch them,
/// `export` never carries them, `boomic backup` copies both files. The key file protects the
/// passwords in a users file that travels without it (a library folder copied without
/// `users.key`, a users file shown to someone); it does not protect them from anyone who can
/// read both files, nor from the running server, which decrypts a password to check a token.
///
/// Every change takes an exclusive `flock` on the key file, reads the users file, and replaces
/// it whole (`AtomicFile`: temporary file, fsync, rename), so two `boomic user` commands never
/// lose each other's change and a reader never sees half a file. Readers take no lock.
public final class Accounts: Sendable {
    public static let usersFileName = "users.json"
    public static let keyFileName = "users.key"
    /// Both files' permission bits: the owner's alone.
    static let mode: mode_t = 0o600

    /// The library folder the files are in.
    public let folder: String
    /// `folder/users.json`
    public let usersPath: String
    /// `folder/users.key`
    public let keyPath: String

    private let cache = Mutex<Cached?>(nil)

    private struct Cached {
        var stamp: FileStamp?
        var authenticator: Authenticator
    }

    /// The accounts of the library in `folder` (its files need not exist yet).
    public init(folder: String) {
        self.folder = folder
        usersPath = folder + "/" + Self.usersFileName
        keyPath = folder + "/" + Self.keyFileName
    }

    /// Every account, in the order they were added.
    public func users() throws(AccountError) -> [User] {
        try read()?.users.map(\.user) ?? []
    }

    /// Whether any account exists.
    public func hasAccounts() throws(AccountError) -> Bool {
        try !(read()?.users.isEmpty ?? true)
    }

    /// The authentication over the accounts as they are now. The files are read again only when
    /// the users file changed (a `boomic user` command while the server runs), which costs one
    /// `stat` per call otherwise.
    ///
    /// Throws when the files cannot be read, or when the key file is missing or is not the one
    /// the passwords were sealed with (`keyMissing`, `keyMismatch`).
    public func authenticator() throws(AccountError) -> Authenticator {
        try LibCrypto.require()
        let stamp = try FileStamp(path: usersPath)
        if let cached = cache.withLock({ $0 }), cached.stamp == stamp { return cached.authenticator }
        let fresh: Authenticator
        if let file = try read(), !file.users.isEmpty {
            fresh = Authenticator(users: file.users, key: try keyMatching(file))
        } else {
            fresh = Authenticator(users: [], key: nil)
        }
        cache.withLock { $0 = Cached(stamp: stamp, authenticator: fresh) }
        return fresh
    }

    // MARK: Reading the files

    /// The users file, nil when there is none.
    func read() throws(AccountError) -> UsersFile? {
        let bytes: [UInt8]
        do {
            let file = try FileDescriptor(path: usersPath, flags: O_RDONLY)
            bytes = try file.readAll(limit: 64 << 20)
            try file.close()
        } catch {
            if error.isNotFound { return nil }
            throw .system(error)
        }
        let file: UsersFile
        do {
            file = try UsersFile.decoder().decode(UsersFile.self, from: Data(bytes))
        } catch {
            throw .damaged(path: usersPath, detail: "it is not a users file Boomic wrote")
        }
        guard file.format <= UsersFile.currentFormat else {
            throw .damaged(path: usersPath, detail: "it was written by a later Boomic (format \(file.format)); use that version")
        }
        return file
    }

    /// The key file's key, nil when there is no key file.
    func readKey() throws(AccountError) -> PasswordKey? {
        let bytes: [UInt8]
        do {
            let file = try FileDescriptor(path: keyPath, flags: O_RDONLY)
            bytes = try file.readAll(limit: 4096)
            try file.close()
        } catch {
            if error.isNotFound { return nil }
            throw .system(error)
        }
        guard let key = PasswordKey(bytes: bytes) else {
            throw .damaged(path: keyPath, detail: "it holds \(bytes.count) bytes where a key is \(PasswordKey.byteCount)")
        }
        return key
    }

    /// The key that sealed `file`'s passwords.
    func keyMatching(_ file: UsersFile) throws(AccountError) -> PasswordKey {
        guard let key = try readKey() else { throw .keyMissing(keyFile: keyPath, usersFile: usersPath) }
        guard key.fingerprint == file.key else { throw .keyMismatch(keyFile: keyPath, usersFile: usersPath) }
        return key
    }
}

/// What tells one version of a file from the next: its inode, size and modification time (a
/// rename over it gives a new inode, so even two writes within a clock tick are told apart).
struct FileStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    /// nil when there is no file at `path`.
    init?(path: String) throws(AccountError) {
        let s: stat
        do {
            s = try SystemCall.status(of: path)
        } catch {
            if error.isNotFound { return nil }
            throw .system(error)
        }
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        size = Int64(s.st_size)
        seconds = s.st_mtim.tv_sec
        nanoseconds = s.st_mtim.tv_nsec
    }
}
