import BoomicSystem
import Foundation
import Glibc

/// Copying the accounts for `boomic backup`.
extension Accounts {
    /// Copies the users file and its key file to `usersCopy` and `keyCopy` (each written whole,
    /// mode 0600), as one consistent pair: under the accounts' lock, so no change lands between
    /// the two reads. Returns false, writing nothing, when there is no account to copy.
    ///
    /// The copies together can log in as every account, exactly as the originals can: keep them
    /// as private as the library folder.
    public func copy(usersTo usersCopy: String, keyTo keyCopy: String) throws(AccountError) -> Bool {
        var opened: FileDescriptor?
        while opened == nil {
            do {
                opened = try FileDescriptor(path: keyPath, flags: O_RDONLY)
            } catch where error.isNotFound {
                // The key file is made before the first account is written (see `change`).
                guard try !(read()?.users.isEmpty ?? true) else { return false }
                if !FileManager.default.fileExists(atPath: keyPath) { throw .keyMissing(keyFile: keyPath, usersFile: usersPath) }
            } catch {
                throw .system(error)
            }
        }
        let lock = opened!
        defer { try? lock.close() }
        do {
            try lock.lock(.shared)
        } catch {
            throw .system(error)
        }
        guard let file = try read(), !file.users.isEmpty else { return false }
        let key = try keyMatching(file)
        do {
            try AtomicFile.write(UsersFile.encoder().encode(file), to: usersCopy, mode: Self.mode)
            try AtomicFile.write(key.bytes, to: keyCopy, mode: Self.mode)
        } catch let error as SystemError {
            throw .system(error)
        } catch {
            throw .damaged(path: usersPath, detail: "it could not be encoded: \(error)")
        }
        return true
    }
}
