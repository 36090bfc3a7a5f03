/// Who made a change through a network API: the account and the program, as OpenSubsonic's
/// `u=` and `c=` name them. Kept in each transaction's provenance (`Transaction.Provenance`'s
/// `user` and `client`) and said at the end of its label, so `boomic history` reads
/// `star album Chelsea Girl by anna via Symfonium`.
public struct Caller: Hashable, Sendable, Codable {
    public var user: String
    public var client: String

    public init(user: String, client: String) {
        self.user = user
        self.client = client
    }

    /// ` by anna via Symfonium`: what a label ends with.
    public var byLine: String { Transaction.Provenance(user: user, client: client).byLine }
}
