extension Song {
    /// Fields most songs lack: the work and movement classical releases are tagged with (Picard's
    /// WORK, MOVEMENTNAME, MOVEMENT), the grouping, the composer's sort name, the MusicBrainz
    /// work ids, the ensemble and the recording's location, MPD clients' stickers, and which values Boomic guessed. They live
    /// in a box of their own, so a song without any pays one word for all ten instead of 160 bytes (6 MB at 50,000 songs, in every
    /// process that holds the library: the server keeps it within 2× of MPD's memory). The
    /// release-track id is not among them: Picard writes one on every song it tags.
    struct RareFields: Hashable, Sendable {
        var composerSort, work, movement, grouping, mbWorkID, ensemble, location: String?
        var movementNumber, movementTotal: Int?
        var stickers: [String]?
        var guessed: [String]?
        /// A song that is one track of its file (`Song.start`, `Song.end`, `Song.sheet`).
        var start, end: Int?
        var sheet: String?
    }

    /// Written only through `Fields.setRare`, which first copies the box unless the song being
    /// changed holds the only reference (`isKnownUniquelyReferenced`): a box two songs, or two
    /// threads, can see is never written, as with `Song`'s own box. That is what makes the
    /// unchecked Sendable safe. Unchecked for exclusivity as `Song`'s box is, and for the same
    /// reason: `setRare` is the only writer, and it reads nothing else while it writes.
    final class RareBox: Hashable, @unchecked Sendable {
        @exclusivity(unchecked) var fields: RareFields
        init(_ fields: RareFields) { self.fields = fields }
        static func == (a: RareBox, b: RareBox) -> Bool { a === b || a.fields == b.fields }
        func hash(into h: inout Hasher) { fields.hash(into: &h) }
    }
}

extension Song.Fields {
    /// Changes one rare field; the box goes when the last of them is cleared, so songs that
    /// never had one and songs that lost them compare equal. Setting the value a field has
    /// changes nothing (normalising a song sets every field).
    mutating func setRare<V: Equatable>(_ key: WritableKeyPath<Song.RareFields, V?>, _ value: V?) {
        guard (rare?.fields[keyPath: key] ?? nil) != value else { return }
        if rare == nil {
            rare = Song.RareBox(Song.RareFields())
        } else if !isKnownUniquelyReferenced(&rare) {
            rare = Song.RareBox(rare!.fields)
        }
        rare!.fields[keyPath: key] = value
        if rare!.fields == Song.RareFields() { rare = nil }
    }

    var composerSort: String? {
        get { rare?.fields.composerSort }
        set { setRare(\.composerSort, newValue) }
    }
    var work: String? {
        get { rare?.fields.work }
        set { setRare(\.work, newValue) }
    }
    var movement: String? {
        get { rare?.fields.movement }
        set { setRare(\.movement, newValue) }
    }
    var movementNumber: Int? {
        get { rare?.fields.movementNumber }
        set { setRare(\.movementNumber, newValue) }
    }
    var movementTotal: Int? {
        get { rare?.fields.movementTotal }
        set { setRare(\.movementTotal, newValue) }
    }
    var grouping: String? {
        get { rare?.fields.grouping }
        set { setRare(\.grouping, newValue) }
    }
    var ensemble: String? {
        get { rare?.fields.ensemble }
        set { setRare(\.ensemble, newValue) }
    }
    var location: String? {
        get { rare?.fields.location }
        set { setRare(\.location, newValue) }
    }
    var stickers: [String]? {
        get { rare?.fields.stickers }
        set { setRare(\.stickers, newValue) }
    }
    var guessed: [String]? {
        get { rare?.fields.guessed }
        set { setRare(\.guessed, newValue) }
    }
    var mbWorkID: String? {
        get { rare?.fields.mbWorkID }
        set { setRare(\.mbWorkID, newValue) }
    }
    var start: Int? {
        get { rare?.fields.start }
        set { setRare(\.start, newValue) }
    }
    var end: Int? {
        get { rare?.fields.end }
        set { setRare(\.end, newValue) }
    }
    var sheet: String? {
        get { rare?.fields.sheet }
        set { setRare(\.sheet, newValue) }
    }
}
