/// The tags a client has switched on (`tagtypes`), a bit per tag: every song a response
/// prints asks it once per tag, and hashing into a `Set` costs a tenth of `listallinfo`'s time.
public struct MPDTagSet: Sendable, Equatable {
    public private(set) var bits: UInt64

    public static let all = MPDTagSet(MPDTag.allCases)
    /// What a client gets before it says otherwise, and after `tagtypes all`: every tag but
    /// Comment, which MPD 0.23 leaves out unless its `metadata_to_use` asks for it (clients then
    /// show a comment MPD users never see). `tagtypes enable comment` turns it on.
    public static let standard: MPDTagSet = {
        var s = MPDTagSet.all
        s.subtract([.comment])
        return s
    }()
    public static let none = MPDTagSet(bits: 0)

    private init(bits: UInt64) { self.bits = bits }

    public init(_ tags: some Sequence<MPDTag>) {
        bits = 0
        for tag in tags { insert(tag) }
    }

    public func contains(_ tag: MPDTag) -> Bool { bits & tag.bit != 0 }
    public mutating func insert(_ tag: MPDTag) { bits |= tag.bit }
    public mutating func formUnion(_ tags: some Sequence<MPDTag>) { for tag in tags { bits |= tag.bit } }
    public mutating func subtract(_ tags: some Sequence<MPDTag>) { for tag in tags { bits &= ~tag.bit } }
}

extension MPDTag {
    /// Its bit in an `MPDTagSet`: its place in `allCases`.
    var bit: UInt64 {
        assert(index < 64, "an MPDTagSet holds 64 tags")
        return 1 << UInt64(index)
    }
}
