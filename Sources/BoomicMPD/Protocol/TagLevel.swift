import BoomicCore

/// A tag as `list`, `count … group` and `sort` name it: one Boomic keeps, or one it does not
/// keep, empty on every song, as MPD has it for files without the tag (`list name` answers
/// `Name: `, not an error).
struct TagLevel: Sendable, Equatable {
    /// MPD's name for it, as the answer's lines print it.
    let name: String
    /// Where its values come from; nil for a tag Boomic does not keep.
    let tag: MPDTag?

    init(_ tag: MPDTag) {
        self.init(name: tag.rawValue, tag: tag)
    }

    private init(name: String, tag: MPDTag?) {
        self.name = name
        self.tag = tag
    }

    init?(name: String) {
        if let tag = MPDTag(name: name) {
            self.init(tag)
        } else if let unkept = MPDTag.unkeptName(name) {
            self.init(name: unkept, tag: nil)
        } else {
            return nil
        }
    }
}

extension MPDResponse {
    /// `forEachValue(of:in:orEmpty:_:)` for a level: an unkept tag has only "".
    static func forEachValue(of level: TagLevel, in song: Song, orEmpty: Bool = false, _ body: (String) -> Void) {
        if let tag = level.tag {
            forEachValue(of: tag, in: song, orEmpty: orEmpty, body)
        } else if orEmpty {
            body("")
        }
    }
}
