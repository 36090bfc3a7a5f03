import BoomicSystem
import BoomicTestSupport
import Foundation
import Glibc
import Testing

@testable import BoomicAccounts

/// The two files on disk: their modes, their atomic replacement, what they hold and what a wrong
/// or missing key file does.
@Suite struct AccountsFileTests {
    let dir = TempDir("boomic-accounts")
    var accounts: Accounts { Accounts(folder: dir.path) }

    static func mode(_ path: String) throws -> mode_t {
        try SystemCall.status(of: path).st_mode & 0o7777
    }

    static func bytes(_ path: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: path) ?? Data())
    }

    @Test func bothFilesAreTheOwnersAloneWhateverTheUmask() throws {
        let old = umask(0)
        defer { umask(old) }
        try accounts.add(name: "anna", password: "sesame")
        #expect(try Self.mode(accounts.usersPath) == 0o600)
        #expect(try Self.mode(accounts.keyPath) == 0o600)
        #expect(Self.bytes(accounts.keyPath).count == 32)
        // A later change keeps them so, even over a file someone loosened.
        chmod(accounts.usersPath, 0o644)
        try accounts.add(name: "ben", password: "x")
        #expect(try Self.mode(accounts.usersPath) == 0o600)
    }

    @Test func aRoundTripKeepsNamesKeysAndPasswordsAndNoSecretInClear() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try accounts.add(name: "anna", password: "sesame", now: now)
        try accounts.add(name: "ben", password: "pässwörd ✓", now: now)
        let key = try accounts.addKey(to: "anna", label: "phone", now: now)
        // A new reader (as another process) sees the same.
        let again = Accounts(folder: dir.path)
        #expect(try again.users() == [
            User(name: "anna", created: now, keys: [APIKeyInfo(id: key.info.id, label: "phone", created: now)]),
            User(name: "ben", created: now, keys: []),
        ])
        let auth = try again.authenticator()
        #expect(try auth.authenticate(user: "ben", password: "pässwörd ✓").get().name == "ben")
        #expect(try auth.authenticate(apiKey: key.key).get().name == "anna")
        let text = String(decoding: Self.bytes(again.usersPath), as: UTF8.self)
        for secret in ["sesame", "pässwörd", key.key, String(key.key.dropFirst(7))] {
            #expect(!text.contains(secret), "\(secret) is in the users file")
        }
    }

    @Test func aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws {
        try accounts.add(name: "anna", password: "sesame")
        let before = try SystemCall.status(of: accounts.usersPath)
        try accounts.add(name: "ben", password: "x")
        let after = try SystemCall.status(of: accounts.usersPath)
        // A rename over it, not a rewrite in place: a reader holding the old file keeps it whole.
        #expect(before.st_ino != after.st_ino)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["users.json", "users.key"])
    }

    @Test func aWriteThatFailsLeavesTheOldFileAsItWas() throws {
        try accounts.add(name: "anna", password: "sesame")
        let before = Self.bytes(accounts.usersPath)
        // The temporary name taken by a folder: the write fails before the rename.
        try FileManager.default.createDirectory(atPath: accounts.usersPath + ".tmp", withIntermediateDirectories: false)
        #expect(throws: AccountError.self) { try accounts.add(name: "ben", password: "x") }
        #expect(Self.bytes(accounts.usersPath) == before)
        #expect(try accounts.users().map(\.name) == ["anna"])
    }

    @Test func aWrongKeyFileIsOneClearError() throws {
        try accounts.add(name: "anna", password: "sesame")
        try Data(PasswordKey.random().bytes).write(to: URL(fileURLWithPath: accounts.keyPath))
        let expected = AccountError.keyMismatch(keyFile: accounts.keyPath, usersFile: accounts.usersPath)
        #expect(throws: expected) { try Accounts(folder: dir.path).authenticator() }
        #expect(throws: expected) { try accounts.add(name: "ben", password: "x") }
        #expect(throws: expected) { try accounts.setPassword(name: "anna", password: "y") }
        #expect(expected.description.contains("is not the key the passwords in"))
        #expect(!expected.description.contains("\n"))
        // Listing needs no key.
        #expect(try accounts.users().map(\.name) == ["anna"])
    }

    @Test func aMissingKeyFileIsNeverReplacedWhileAccountsNeedIt() throws {
        try accounts.add(name: "anna", password: "sesame")
        try FileManager.default.removeItem(atPath: accounts.keyPath)
        let expected = AccountError.keyMissing(keyFile: accounts.keyPath, usersFile: accounts.usersPath)
        #expect(throws: expected) { try accounts.add(name: "ben", password: "x") }
        #expect(throws: expected) { try Accounts(folder: dir.path).authenticator() }
        #expect(!FileManager.default.fileExists(atPath: accounts.keyPath))
        #expect(throws: expected) { try accounts.remove(name: "anna") }
        // Once the users file is moved away (as the error says), a new key is made for the next.
        try FileManager.default.moveItem(atPath: accounts.usersPath, toPath: dir.file("old-users.json"))
        try accounts.add(name: "ben", password: "x")
        #expect(try accounts.authenticator().authenticate(user: "ben", password: "x").get().name == "ben")
    }

    @Test func aDamagedKeyOrUsersFileIsOneClearError() throws {
        try accounts.add(name: "anna", password: "sesame")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: accounts.keyPath))
        #expect(throws: AccountError.damaged(path: accounts.keyPath, detail: "it holds 3 bytes where a key is 32")) {
            try Accounts(folder: dir.path).authenticator()
        }
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: accounts.usersPath))
        #expect(throws: AccountError.damaged(path: accounts.usersPath, detail: "it is not a users file Boomic wrote")) {
            try accounts.users()
        }
    }

    @Test func namesAreUniqueWithoutRegardToCaseAndChecked() throws {
        try accounts.add(name: "Anna", password: "a")
        #expect(throws: AccountError.userExists("Anna")) { try accounts.add(name: "anna", password: "b") }
        for bad in ["", "-x", "a b", "a/b", "a\u{1B}b", String(repeating: "n", count: 65)] {
            #expect(throws: AccountError.self, "\(bad)") { try accounts.add(name: bad, password: "p") }
        }
        #expect(throws: AccountError.emptyPassword) { try accounts.add(name: "ben", password: "") }
        #expect(try accounts.users().map(\.name) == ["Anna"])
    }

    @Test func removingAndChangingAccountsAndKeys() throws {
        try accounts.add(name: "anna", password: "old")
        let k1 = try accounts.addKey(to: "anna", label: "phone")
        let k2 = try accounts.addKey(to: "ANNA")
        #expect(k1.info.id != k2.info.id && k1.key != k2.key)
        #expect(k1.key.hasPrefix("boomic_") && k1.key.count == 50)
        #expect(throws: AccountError.invalidLabel("a\u{1B}b")) { try accounts.addKey(to: "anna", label: "a\u{1B}b") }
        #expect(AccountError.invalidLabel("a\u{1B}b").description.hasPrefix("'a\\u{1B}b' cannot label a key"))
        try accounts.setPassword(name: "anna", password: "new")
        var auth = try accounts.authenticator()
        #expect(auth.authenticate(user: "anna", password: "old") == .failure(.wrongCredentials))
        #expect(try auth.authenticate(user: "anna", password: "new").get().name == "anna")
        #expect(try auth.authenticate(apiKey: k1.key).get().name == "anna")
        try accounts.removeKey(of: "anna", id: k1.info.id.uppercased())
        #expect(try accounts.keys(of: "anna").map(\.id) == [k2.info.id])
        #expect(throws: AccountError.unknownKey(user: "anna", id: "nope")) { try accounts.removeKey(of: "anna", id: "nope") }
        auth = try accounts.authenticator()
        #expect(auth.authenticate(apiKey: k1.key) == .failure(.invalidAPIKey))
        #expect(try auth.authenticate(apiKey: k2.key).get().name == "anna")
        try accounts.remove(name: "anna")
        #expect(throws: AccountError.unknownUser("anna")) { try accounts.remove(name: "anna") }
        auth = try accounts.authenticator()
        #expect(!auth.hasAccounts)
        #expect(auth.authenticate(apiKey: k2.key) == .failure(.invalidAPIKey))
    }

    /// Writers take turns under the key file's lock: none loses another's account, including the
    /// first ones, which race to make the key file.
    @Test func writersAtOnceLoseNothing() async throws {
        let folder = dir.path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask { try Accounts(folder: folder).add(name: "user\(i)", password: "pw\(i)") }
            }
            try await group.waitForAll()
        }
        #expect(try Set(accounts.users().map(\.name)) == Set((0..<8).map { "user\($0)" }))
        let auth = try accounts.authenticator()
        for i in 0..<8 { #expect(try auth.authenticate(user: "user\(i)", password: "pw\(i)").get().name == "user\(i)") }
    }

    @Test func whetherAnyAccountExists() throws {
        #expect(try !accounts.hasAccounts())
        #expect(try !accounts.authenticator().hasAccounts)
        try accounts.add(name: "anna", password: "a")
        #expect(try accounts.hasAccounts())
        #expect(try accounts.authenticator().hasAccounts)
        try accounts.remove(name: "anna")
        #expect(try !accounts.hasAccounts())
    }

    @Test func theAuthenticatorSeesAChangeMadeByAnotherWriter() throws {
        let server = Accounts(folder: dir.path)
        #expect(try !server.authenticator().hasAccounts)
        try Accounts(folder: dir.path).add(name: "anna", password: "a")
        #expect(try server.authenticator().user(named: "anna")?.name == "anna")
    }

    @Test func aCopyIsAPairThatLogsInAsTheOriginals() throws {
        let backup = TempDir("boomic-accounts-copy")
        let users = backup.file("b.users.json"), key = backup.file("b.users.key")
        #expect(try !accounts.copy(usersTo: users, keyTo: key))
        #expect(!FileManager.default.fileExists(atPath: users))
        try accounts.add(name: "anna", password: "sesame")
        #expect(try accounts.copy(usersTo: users, keyTo: key))
        #expect(try Self.mode(users) == 0o600 && Self.mode(key) == 0o600)
        #expect(Self.bytes(key) == Self.bytes(accounts.keyPath))
        try FileManager.default.moveItem(atPath: users, toPath: backup.file("users.json"))
        try FileManager.default.moveItem(atPath: key, toPath: backup.file("users.key"))
        let restored = try Accounts(folder: backup.path).authenticator()
        #expect(try restored.authenticate(user: "anna", password: "sesame").get().name == "anna")
    }
}
