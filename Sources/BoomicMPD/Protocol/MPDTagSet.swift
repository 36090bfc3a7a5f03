/// The tags a client has switched on (`tagtypes`), a bit per tag: every song a response
/// prints asks it once per tag, and hashing into a `Set` costs a tenth of `listallinfo`'s time.
public struct MPDTagSet: Sendable, Equatable {
    public private(set) var bits: UInt32

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

    private init(bits: UInt32) { self.bits = bits }

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
    /// Its bit in an `MPDTagSet`.
    var bit: UInt32 {
        switch self {
        case .artist: 1 << 0
        case .album: 1 << 1
        case .albumArtist: 1 << 2
        case .title: 1 << 3
        case .track: 1 << 4
        case .genre: 1 << 5
        case .date: 1 << 6
        case .composer: 1 << 7
        case .comment: 1 << 8
        case .disc: 1 << 9
        case .musicBrainzArtistID: 1 << 10
        case .musicBrainzAlbumID: 1 << 11
        case .musicBrainzAlbumArtistID: 1 << 12
        case .musicBrainzTrackID: 1 << 13
        case .musicBrainzReleaseGroupID: 1 << 14
        case .artistSort: 1 << 15
        case .albumSort: 1 << 16
        case .albumArtistSort: 1 << 17
        case .performer: 1 << 18
        case .conductor: 1 << 19
        case .label: 1 << 20
        case .originalDate: 1 << 21
        case .composerSort: 1 << 22
        case .work: 1 << 23
        case .movement: 1 << 24
        case .movementNumber: 1 << 25
        case .grouping: 1 << 26
        case .musicBrainzReleaseTrackID: 1 << 27
        case .musicBrainzWorkID: 1 << 28
        case .ensemble: 1 << 29
        case .location: 1 << 30
        }
    }
}
