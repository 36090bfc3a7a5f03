/// An account as the API shows it.
public struct SubsonicUser: Sendable, Equatable {
    public var name: String
    /// May run `startScan` and list every account (`getUsers`).
    public var isAdmin: Bool
    public var email: String?

    public init(name: String, isAdmin: Bool, email: String? = nil) {
        self.name = name
        self.isAdmin = isAdmin
        self.email = email
    }
}
