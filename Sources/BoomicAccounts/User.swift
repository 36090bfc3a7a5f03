import Foundation

/// An account of the network fronts, as the CLI lists it and the HTTP front names who logged in.
/// Its password and its API keys never leave BoomicAccounts.
public struct User: Sendable, Equatable {
    /// The name as it was added (logins match it without regard to case).
    public var name: String
    public var created: Date
    public var keys: [APIKeyInfo]

    public init(name: String, created: Date, keys: [APIKeyInfo]) {
        self.name = name
        self.created = created
        self.keys = keys
    }
}

/// What is kept of an API key besides its hash: what names it.
public struct APIKeyInfo: Sendable, Equatable {
    /// Eight hex digits, unique among all keys: `boomic user key rm NAME ID`.
    public var id: String
    public var label: String?
    public var created: Date

    public init(id: String, label: String?, created: Date) {
        self.id = id
        self.label = label
        self.created = created
    }
}

/// A key just made: the only time the key itself exists outside its user's hands.
public struct NewAPIKey: Sendable, Equatable {
    /// The key to give a client as `apiKey`: `boomic_` and 43 characters of base64url.
    public var key: String
    public var info: APIKeyInfo
    /// The account it logs in as.
    public var user: String
}
