import BoomicAccounts

/// The HTTP front's logins against the library's accounts (`boomic user`). The accounts are
/// read again per request (one `stat` while `users.json` is unchanged), so an account added,
/// removed or given a new password takes effect at the next request, with no restart.
///
/// Every account may do everything (`startScan`, `getUsers`): the library is one household's,
/// shared by its users (Documentation/http.md).
public struct AccountsAuthenticator: SubsonicAuthenticator {
    let accounts: Accounts
    /// Where a file of the accounts cannot be read (a damaged `users.json`, a missing
    /// `users.key`): said once a request, never the password.
    let warn: @Sendable (String) -> Void

    public init(accounts: Accounts, warn: @escaping @Sendable (String) -> Void) {
        self.accounts = accounts
        self.warn = warn
    }

    public func authenticate(user: String, token: String, salt: String) async -> SubsonicLogin {
        login(absent: .wrongCredentials) { $0.authenticate(user: user, token: token, salt: salt) }
    }

    public func authenticate(user: String, password: String) async -> SubsonicLogin {
        login(absent: .wrongCredentials) { $0.authenticate(user: user, password: password) }
    }

    public func authenticate(apiKey: String) async -> SubsonicLogin {
        login(absent: .invalidAPIKey) { $0.authenticate(apiKey: apiKey) }
    }

    public func users() async -> [SubsonicUser] {
        do {
            return try accounts.users().map { SubsonicUser(name: $0.name, isAdmin: true) }
        } catch {
            warn(error.localizedDescription)
            return []
        }
    }

    private func login(absent: SubsonicError.Code,
                       _ check: (Authenticator) -> Result<User, AuthFailure>) -> SubsonicLogin {
        let authenticator: Authenticator
        do {
            authenticator = try accounts.authenticator()
        } catch {
            warn(error.localizedDescription)
            return .refused(absent)
        }
        switch check(authenticator) {
        case let .success(user): return .user(user.name)
        case let .failure(failure): return .refused(SubsonicError.Code(rawValue: failure.code) ?? .generic)
        }
    }
}
