import Foundation

/// Subsonic's authentication over one reading of the accounts: pure functions of the request's
/// credentials, with no I/O, for the HTTP front to call on each request (`Accounts.authenticator()`
/// gives the current one, read again only when the users file changes).
///
/// Every secret is compared in constant time: a password through the SHA-256 of both sides, a
/// token as its 16 bytes against the digest, an API key's SHA-256 against every stored key's.
/// A name that has no account still costs a digest, so a wrong name takes about as long as a
/// wrong password; delaying failed logins is the front's.
public struct Authenticator: Sendable {
    let users: [UsersFile.StoredUser]
    /// nil only when there are no users (no key file is needed then).
    let key: PasswordKey?

    init(users: [UsersFile.StoredUser], key: PasswordKey?) {
        self.users = users
        self.key = key
    }

    /// Whether any account exists: the HTTP front refuses to listen beyond loopback while none
    /// does.
    public var hasAccounts: Bool { !users.isEmpty }

    /// The account named `name` (without regard to case), nil when there is none.
    public func user(named name: String) -> User? {
        storedUser(named: name)?.user
    }

    /// Every account, in the order they were added.
    public var allUsers: [User] { users.map(\.user) }

    /// Picks the mechanism the request's parameters ask for, as Subsonic and OpenSubsonic say:
    /// `apiKey` alone; else `u` with either `p`, or `t` and `s`. `apiKey` with any of `u`, `p`,
    /// `t`, `s`, or `p` with `t` or `s`, is 43; a missing part is 10.
    public func authenticate(_ c: Credentials) -> Result<User, AuthFailure> {
        if let apiKey = c.apiKey {
            if c.user != nil || c.password != nil || c.token != nil || c.salt != nil { return .failure(.conflictingMechanisms) }
            return authenticate(apiKey: apiKey)
        }
        guard let user = c.user else { return .failure(.missingParameter("u")) }
        if let password = c.password {
            if c.token != nil || c.salt != nil { return .failure(.conflictingMechanisms) }
            return authenticate(user: user, password: password)
        }
        switch (c.token, c.salt) {
        case let (token?, salt?): return authenticate(user: user, token: token, salt: salt)
        case (_?, nil): return .failure(.missingParameter("s"))
        case (nil, _?): return .failure(.missingParameter("t"))
        case (nil, nil): return .failure(.missingParameter("p"))
        }
    }

    /// Token authentication: `token` is md5(password + salt) in hex (Subsonic writes it in
    /// lowercase; either case is read).
    public func authenticate(user name: String, token: String, salt: String) -> Result<User, AuthFailure> {
        let given = Hex.decode(token)
        guard let stored = storedUser(named: name), let password = password(of: stored) else {
            _ = Digests.md5(Array((name + salt).utf8))
            return .failure(.wrongCredentials)
        }
        let expected = Digests.md5(Array((password + salt).utf8))
        guard let given, ConstantTime.equal(given, expected) else { return .failure(.wrongCredentials) }
        return .success(stored.user)
    }

    /// Password authentication (`p`): in clear, or `enc:` followed by the hex of its UTF-8.
    public func authenticate(user name: String, password given: String) -> Result<User, AuthFailure> {
        let clear: String?
        if given.hasPrefix("enc:") {
            clear = Hex.decode(given.dropFirst(4)).flatMap { String(validating: $0, as: UTF8.self) }
        } else {
            clear = given
        }
        let givenDigest = Digests.sha256(Array((clear ?? "").utf8))
        guard let stored = storedUser(named: name), let password = password(of: stored) else {
            return .failure(.wrongCredentials)
        }
        let expected = Digests.sha256(Array(password.utf8))
        guard clear != nil, ConstantTime.equal(givenDigest, expected) else { return .failure(.wrongCredentials) }
        return .success(stored.user)
    }

    /// API key authentication (OpenSubsonic's `apiKey`; `tokenInfo` names the user it returns).
    public func authenticate(apiKey: String) -> Result<User, AuthFailure> {
        let digest = Digests.sha256(Array(apiKey.utf8))
        var found: UsersFile.StoredUser?
        // Every stored key is compared, found or not.
        for user in users {
            for key in user.keys {
                let stored = Hex.decode(key.sha256) ?? []
                if ConstantTime.equal(digest, stored) { found = user }
            }
        }
        guard let found else { return .failure(.invalidAPIKey) }
        return .success(found.user)
    }

    private func storedUser(named name: String) -> UsersFile.StoredUser? {
        let folded = name.lowercased()
        return users.first { $0.name.lowercased() == folded }
    }

    private func password(of user: UsersFile.StoredUser) -> String? {
        key?.open(user.password, for: user.name)
    }
}
