/// A whole-value change of a small entity (a taglist or a playlist): `old` → `new`.
///
/// `old == nil` is an add, `new == nil` a delete, both present an update. Taglists and playlists
/// are a few hundred bytes to a few kilobytes, so the log keeps both values whole (as it keeps a
/// deleted song whole): show, revert and undo then need no older state. Never both nil.
public struct EntityChange<Value: Hashable & Sendable & Codable>: Hashable, Sendable, Codable {
    public var old: Value?
    public var new: Value?

    public init(old: Value?, new: Value?) {
        precondition(old != nil || new != nil, "a change has a value on at least one side")
        self.old = old
        self.new = new
    }

    public var inverse: EntityChange { EntityChange(old: new, new: old) }

    public var isNoOp: Bool { old == new }

    private enum Key: String, CodingKey { case old, new }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        old = try c.decodeIfPresent(Value.self, forKey: .old)
        new = try c.decodeIfPresent(Value.self, forKey: .new)
        if old == nil && new == nil {
            throw DecodingError.dataCorruptedError(forKey: .new, in: c,
                debugDescription: "a change needs an old or a new value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(old, forKey: .old)
        try c.encodeIfPresent(new, forKey: .new)
    }
}

/// What an assertion is about: one song, taglist, playlist, EQ profile or album/artist annotation.
///
/// Flatten merges per entity, diff and `show` list in this order (songs first, by id).
public enum EntityKey: Hashable, Comparable, Sendable {
    case song(SongID)
    case taglist(ListID)
    case playlist(ListID)
    case eqProfile(ListID)
    case annotation(AnnotationKey)

    public static func < (a: EntityKey, b: EntityKey) -> Bool {
        switch (a, b) {
        case (.song(let x), .song(let y)): return x < y
        case (.taglist(let x), .taglist(let y)), (.playlist(let x), .playlist(let y)), (.eqProfile(let x), .eqProfile(let y)):
            return x < y
        case (.annotation(let x), .annotation(let y)): return x < y
        default: return a.rank < b.rank
        }
    }

    private var rank: Int {
        switch self {
        case .song: return 0
        case .taglist: return 1
        case .playlist: return 2
        case .eqProfile: return 3
        case .annotation: return 4
        }
    }
}
