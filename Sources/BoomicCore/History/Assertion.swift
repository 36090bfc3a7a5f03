/// One fact about one entity, the unit a transaction is made of (DESIGN §1).
///
/// `delete` carries the whole song it removes so that history can show it and a revert can bring
/// it back without reading older states; `update` carries old and new per field for the same reason.
/// Taglists and playlists are small, so their assertions carry the old and new values whole.
public enum Assertion: Hashable, Sendable, Codable {
    case addSong(Song)
    case updateSong(SongID, SongPatch)
    case deleteSong(Song)
    /// Adds (old nil), redefines or renames, or deletes (new nil) a taglist.
    case taglist(ListID, EntityChange<Taglist>)
    /// Adds, changes (entries, order, name) or deletes a playlist.
    case playlist(ListID, EntityChange<Playlist>)
    /// Saves, changes or removes an equalizer profile.
    case eqProfile(ListID, EntityChange<EQProfile>)
    /// Stars, rates or clears an album or artist (`Annotation`).
    case annotation(AnnotationKey, EntityChange<Annotation>)

    /// The song this assertion is about; nil for taglists and playlists.
    public var songID: SongID? {
        switch self {
        case .addSong(let s), .deleteSong(let s): return s.id
        case .updateSong(let id, _): return id
        case .taglist, .playlist, .eqProfile, .annotation: return nil
        }
    }

    /// The entity this assertion is about.
    public var entity: EntityKey {
        switch self {
        case .addSong(let s), .deleteSong(let s): return .song(s.id)
        case .updateSong(let id, _): return .song(id)
        case .taglist(let id, _): return .taglist(id)
        case .playlist(let id, _): return .playlist(id)
        case .eqProfile(let id, _): return .eqProfile(id)
        case .annotation(let key, _): return .annotation(key)
        }
    }

    /// The assertion that undoes this one on the basis it was applied to.
    public var inverse: Assertion {
        switch self {
        case .addSong(let s): return .deleteSong(s)
        case .deleteSong(let s): return .addSong(s)
        case .updateSong(let id, let p):
            return .updateSong(id, p.mapValues { FieldChange(old: $0.new, new: $0.old) })
        case .taglist(let id, let c): return .taglist(id, c.inverse)
        case .playlist(let id, let c): return .playlist(id, c.inverse)
        case .eqProfile(let id, let c): return .eqProfile(id, c.inverse)
        case .annotation(let key, let c): return .annotation(key, c.inverse)
        }
    }

    // Codable: {"add": {song}} / {"update": {"id": …, "fields": {"title": {"old": …, "new": …}}}} /
    // {"delete": {song}} / {"taglist": {"id": …, "old": …, "new": …}} / {"playlist": {…}} / {"eq": {…}} /
    // {"annotation": {"key": {"kind": "album", …}, "old": …, "new": …}}:
    // readable in the log, and stable under sorted keys.
    private enum Key: String, CodingKey { case add, update, delete, taglist, playlist, eq, annotation }
    private enum UpdateKey: String, CodingKey { case id, fields }
    private enum ListKey: String, CodingKey { case id, old, new }
    private enum AnnotationCodingKey: String, CodingKey { case key, old, new }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        if let s = try c.decodeIfPresent(Song.self, forKey: .add) {
            self = .addSong(s)
        } else if let s = try c.decodeIfPresent(Song.self, forKey: .delete) {
            self = .deleteSong(s)
        } else if c.contains(.taglist) {
            let l = try c.nestedContainer(keyedBy: ListKey.self, forKey: .taglist)
            self = .taglist(try l.decode(ListID.self, forKey: .id), try c.decode(EntityChange<Taglist>.self, forKey: .taglist))
        } else if c.contains(.playlist) {
            let l = try c.nestedContainer(keyedBy: ListKey.self, forKey: .playlist)
            self = .playlist(try l.decode(ListID.self, forKey: .id), try c.decode(EntityChange<Playlist>.self, forKey: .playlist))
        } else if c.contains(.eq) {
            let l = try c.nestedContainer(keyedBy: ListKey.self, forKey: .eq)
            self = .eqProfile(try l.decode(ListID.self, forKey: .id), try c.decode(EntityChange<EQProfile>.self, forKey: .eq))
        } else if c.contains(.annotation) {
            let l = try c.nestedContainer(keyedBy: AnnotationCodingKey.self, forKey: .annotation)
            self = .annotation(try l.decode(AnnotationKey.self, forKey: .key), try c.decode(EntityChange<Annotation>.self, forKey: .annotation))
        } else {
            let u = try c.nestedContainer(keyedBy: UpdateKey.self, forKey: .update)
            let id = try u.decode(SongID.self, forKey: .id)
            let raw = try u.decode([SongField: FieldChange].self, forKey: .fields)
            var patch: SongPatch = [:]
            for (f, ch) in raw { patch[f] = FieldChange(old: f.normalize(ch.old), new: f.normalize(ch.new)) }
            self = .updateSong(id, patch)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .addSong(let s): try c.encode(s, forKey: .add)
        case .deleteSong(let s): try c.encode(s, forKey: .delete)
        case .updateSong(let id, let p):
            var u = c.nestedContainer(keyedBy: UpdateKey.self, forKey: .update)
            try u.encode(id, forKey: .id)
            try u.encode(p, forKey: .fields)
        case .taglist(let id, let change):
            var l = c.nestedContainer(keyedBy: ListKey.self, forKey: .taglist)
            try l.encode(id, forKey: .id)
            try l.encodeIfPresent(change.old, forKey: .old)
            try l.encodeIfPresent(change.new, forKey: .new)
        case .playlist(let id, let change):
            var l = c.nestedContainer(keyedBy: ListKey.self, forKey: .playlist)
            try l.encode(id, forKey: .id)
            try l.encodeIfPresent(change.old, forKey: .old)
            try l.encodeIfPresent(change.new, forKey: .new)
        case .eqProfile(let id, let change):
            var l = c.nestedContainer(keyedBy: ListKey.self, forKey: .eq)
            try l.encode(id, forKey: .id)
            try l.encodeIfPresent(change.old, forKey: .old)
            try l.encodeIfPresent(change.new, forKey: .new)
        case .annotation(let key, let change):
            var l = c.nestedContainer(keyedBy: AnnotationCodingKey.self, forKey: .annotation)
            try l.encode(key, forKey: .key)
            try l.encodeIfPresent(change.old, forKey: .old)
            try l.encodeIfPresent(change.new, forKey: .new)
        }
    }
}
