/// What a Subsonic request carries to authenticate: its `u`, `p`, `t`, `s` and `apiKey`
/// parameters, nil when absent. An empty value counts as absent (no account has an empty name,
/// password or key).
public struct Credentials: Sendable, Equatable {
    /// `u`: the account's name.
    public var user: String?
    /// `p`: the password, in clear or as `enc:` and the hex of its UTF-8.
    public var password: String?
    /// `t`: md5(password + salt) in lowercase hex.
    public var token: String?
    /// `s`: the salt the token was made with.
    public var salt: String?
    /// `apiKey` (OpenSubsonic's `apiKeyAuthentication`): a key made by `boomic user key add`.
    public var apiKey: String?

    public init(user: String? = nil, password: String? = nil, token: String? = nil, salt: String? = nil, apiKey: String? = nil) {
        self.user = Self.given(user)
        self.password = Self.given(password)
        self.token = Self.given(token)
        self.salt = Self.given(salt)
        self.apiKey = Self.given(apiKey)
    }

    /// The credentials among a request's parameters, looked up by Subsonic's names (`u`, `p`,
    /// `t`, `s`, `apiKey`), from the query or a form post alike.
    public init(parameter: (String) -> String?) {
        self.init(user: parameter("u"), password: parameter("p"), token: parameter("t"), salt: parameter("s"), apiKey: parameter("apiKey"))
    }

    private static func given(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
