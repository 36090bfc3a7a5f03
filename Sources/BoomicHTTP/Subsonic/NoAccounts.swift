/// The authenticator of a front without accounts: every login fails (40; 44 for a key).
public struct NoAccounts: SubsonicAuthenticator {
    public init() {}
    public func authenticate(user: String, token: String, salt: String) async -> SubsonicLogin { .refused(.wrongCredentials) }
    public func authenticate(user: String, password: String) async -> SubsonicLogin { .refused(.wrongCredentials) }
    public func authenticate(apiKey: String) async -> SubsonicLogin { .refused(.invalidAPIKey) }
    public func users() async -> [SubsonicUser] { [] }
}
