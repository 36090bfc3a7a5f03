/// Who may call the API: the accounts behind the front (BoomicAccounts in `boomic serve`, a
/// stand-in in tests). Each call answers the account's user name or the Subsonic code of the
/// failure (40 wrong user or password, 41 no token for this account, 44 unknown API key, …).
/// The front checks the parameters (which mechanism, conflicts, `enc:`), delays and logs
/// failures; the authenticator only judges credentials.
public protocol SubsonicAuthenticator: Sendable {
    /// Token authentication: `t` is the MD5 (lowercase hex) of the password followed by `s`.
    func authenticate(user: String, token: String, salt: String) async -> SubsonicLogin
    /// The password in clear (`p=`, already hex-decoded when it came as `enc:`).
    func authenticate(user: String, password: String) async -> SubsonicLogin
    /// OpenSubsonic's `apiKey`: the key names its user.
    func authenticate(apiKey: String) async -> SubsonicLogin
    /// The accounts, for `getUser` and `getUsers`.
    func users() async -> [SubsonicUser]
}
