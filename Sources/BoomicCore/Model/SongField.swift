/// Every stored property of `Song`, by the name users and scripts know it by (DESIGN §4).
///
/// Assertions patch songs through this enum, diff walks it, queries and `modify` resolve user
/// field names with it. A new `Song` property needs a case here, or it is invisible to history.
public enum SongField: String, CaseIterable, Codable, Sendable, Comparable, CodingKeyRepresentable {
    case path, size, mtime, fingerprint, missing, added
    case title, artists
    /// The ARTIST credit when it differs from the joined `artists` (see `Song.artistCredit`).
    case artistCredit = "artist_credit"
    case album, albumartist
    /// Sort names, as the files give them (ARTISTSORT, ALBUMARTISTSORT, ALBUMSORT).
    case artistSort = "artist_sort"
    case albumartistSort = "albumartist_sort"
    case albumSort = "album_sort"
    /// Performers and conductors (several joined with "; "), the label, the original date.
    case performer, conductor, label
    case originalDate = "original_date"
    /// The composer's sort name, the work and movement of classical recordings, the grouping.
    case composerSort = "composer_sort"
    case work, movement
    case movementNumber = "movement_number"
    case movementTotal = "movement_total"
    case grouping
    /// The ensemble (several joined with "; ") and where it was recorded, as MPD 0.23 keeps them.
    case ensemble, location
    case track, tracktotal, disc, disctotal, year, date
    case genre, composer, compilation, comment
    case replaygainTrackGain = "replaygain_track_gain"
    case replaygainTrackPeak = "replaygain_track_peak"
    case replaygainAlbumGain = "replaygain_album_gain"
    case replaygainAlbumPeak = "replaygain_album_peak"
    case mbTrackID = "mb_trackid"
    case mbAlbumID = "mb_albumid"
    case mbArtistID = "mb_artistid"
    case mbAlbumArtistID = "mb_albumartistid"
    case mbReleaseGroupID = "mb_releasegroupid"
    case mbReleaseTrackID = "mb_releasetrackid"
    case mbWorkID = "mb_workid"
    case duration, samplerate, bitdepth, channels, bitrate, format
    /// A song that is one track of its file: its first sample, the sample after its last (nil:
    /// the file's end) and the CUE sheet it comes from (`Song.start`, `end`, `sheet`).
    case start, end, sheet
    case tags, rating, playcount, favorite, art
    case fileValues = "file_values"
    /// The user's own fields, all in one (`name=value` entries): a change of `mood` is a change
    /// of this field, so user fields replay, flatten, diff and roll back like any other.
    case userFields = "user_fields"
    /// What MPD clients keep on a song under names of their own (`sticker set song URI
    /// playCount 3`, as myMPD does): `name=value` entries, names as the client spells them.
    /// Stickers Boomic has a field for (rating, playcount, favorite) are those fields.
    case stickers
    /// The fields whose value Boomic guessed (`Song.guessed`): their names, sorted.
    case guessed
    // What the player records (kind `play`): facts, not edits, so undo, redo, revert and
    // rollback leave them alone unless asked (`isPlayField`).
    case skipcount, lastplayed, bookmark
    /// The speed the bookmark was left at (nil: 1.0); part of the bookmark.
    case bookmarkSpeed = "bookmark_speed"

    public enum Kind: Sendable { case string, int, double, bool, strings }

    public static func < (a: SongField, b: SongField) -> Bool { a.order < b.order }

    private var order: Int { SongField.allCases.firstIndex(of: self)! }

    public var name: String { rawValue }

    public var kind: Kind {
        switch self {
        case .path, .fingerprint, .title, .artistCredit, .album, .albumartist, .artistSort, .albumartistSort, .albumSort,
             .performer, .conductor, .label, .originalDate, .composerSort, .work, .movement, .grouping,
             .ensemble, .location,
             .date, .genre, .composer, .comment,
             .mbTrackID, .mbAlbumID, .mbArtistID, .mbAlbumArtistID, .mbReleaseGroupID, .mbReleaseTrackID, .mbWorkID,
             .format, .art, .sheet:
            return .string
        case .size, .mtime, .track, .tracktotal, .movementNumber, .movementTotal, .disc, .disctotal, .year, .samplerate, .bitdepth,
             .channels, .bitrate, .rating, .playcount, .skipcount, .start, .end:
            return .int
        case .added, .replaygainTrackGain, .replaygainTrackPeak, .replaygainAlbumGain,
             .replaygainAlbumPeak, .duration, .lastplayed, .bookmark, .bookmarkSpeed:
            return .double
        case .missing, .compilation, .favorite:
            return .bool
        case .artists, .tags, .fileValues, .userFields, .stickers, .guessed:
            return .strings
        }
    }

    /// Fields that come from the file itself (a rescan refreshes them; `modify` may not set them).
    public var isFileFact: Bool {
        switch self {
        case .path, .size, .mtime, .fingerprint, .missing, .added, .duration, .samplerate, .bitdepth,
             .channels, .bitrate, .format, .fileValues, .start, .end, .sheet:
            return true
        default:
            return false
        }
    }

    /// Fields the library owns rather than the file's tags: a rescan never overwrites them.
    public var isLibraryOnly: Bool {
        switch self {
        case .tags, .rating, .playcount, .favorite, .userFields, .stickers, .guessed, .skipcount, .lastplayed, .bookmark, .bookmarkSpeed:
            return true
        default: return false
        }
    }

    /// What plays record: undo, redo, revert and rollback leave these alone unless `--plays`
    /// (listening to a song is a fact, not an edit to take back).
    public var isPlayField: Bool {
        switch self {
        case .playcount, .skipcount, .lastplayed, .bookmark, .bookmarkSpeed: return true
        default: return false
        }
    }

    /// The play fields, in field order.
    public static let playFields: [SongField] = allCases.filter(\.isPlayField)

    /// Fields holding a moment (seconds since 1970): queries and taglists read dates for them
    /// (`lastplayed:2026-11..`), and `info` and `--json` show them as dates.
    public var isDate: Bool { self == .added || self == .lastplayed }

    /// Fields whose value comes from the file's tags; a rescan of a changed file refreshes them.
    public var isTag: Bool { !isFileFact && !isLibraryOnly }

    public func value(in song: Song) -> FieldValue {
        switch self {
        case .path: return .string(song.path)
        case .size: return .int(song.size)
        case .mtime: return .int(song.mtime)
        case .fingerprint: return Self.opt(song.fingerprint)
        case .missing: return .bool(song.missing)
        case .added: return .double(song.added)
        case .title: return Self.opt(song.title)
        case .artists: return .strings(song.artists)
        case .artistCredit: return Self.opt(song.artistCredit)
        case .album: return Self.opt(song.album)
        case .albumartist: return Self.opt(song.albumartist)
        case .artistSort: return Self.opt(song.artistSort)
        case .albumartistSort: return Self.opt(song.albumartistSort)
        case .albumSort: return Self.opt(song.albumSort)
        case .performer: return Self.opt(song.performer)
        case .conductor: return Self.opt(song.conductor)
        case .label: return Self.opt(song.label)
        case .originalDate: return Self.opt(song.originalDate)
        case .composerSort: return Self.opt(song.composerSort)
        case .work: return Self.opt(song.work)
        case .movement: return Self.opt(song.movement)
        case .movementNumber: return Self.opt(song.movementNumber)
        case .movementTotal: return Self.opt(song.movementTotal)
        case .grouping: return Self.opt(song.grouping)
        case .ensemble: return Self.opt(song.ensemble)
        case .location: return Self.opt(song.location)
        case .track: return Self.opt(song.track)
        case .tracktotal: return Self.opt(song.tracktotal)
        case .disc: return Self.opt(song.disc)
        case .disctotal: return Self.opt(song.disctotal)
        case .year: return Self.opt(song.year)
        case .date: return Self.opt(song.date)
        case .genre: return Self.opt(song.genre)
        case .composer: return Self.opt(song.composer)
        case .compilation: return .bool(song.compilation)
        case .comment: return Self.opt(song.comment)
        case .replaygainTrackGain: return Self.opt(song.replaygainTrackGain)
        case .replaygainTrackPeak: return Self.opt(song.replaygainTrackPeak)
        case .replaygainAlbumGain: return Self.opt(song.replaygainAlbumGain)
        case .replaygainAlbumPeak: return Self.opt(song.replaygainAlbumPeak)
        case .mbTrackID: return Self.opt(song.mbTrackID)
        case .mbAlbumID: return Self.opt(song.mbAlbumID)
        case .mbArtistID: return Self.opt(song.mbArtistID)
        case .mbAlbumArtistID: return Self.opt(song.mbAlbumArtistID)
        case .mbReleaseGroupID: return Self.opt(song.mbReleaseGroupID)
        case .mbReleaseTrackID: return Self.opt(song.mbReleaseTrackID)
        case .mbWorkID: return Self.opt(song.mbWorkID)
        case .duration: return Self.opt(song.duration)
        case .samplerate: return Self.opt(song.samplerate)
        case .bitdepth: return Self.opt(song.bitdepth)
        case .channels: return Self.opt(song.channels)
        case .bitrate: return Self.opt(song.bitrate)
        case .format: return Self.opt(song.format)
        case .start: return Self.opt(song.start)
        case .end: return Self.opt(song.end)
        case .sheet: return Self.opt(song.sheet)
        case .tags: return .strings(song.tags)
        case .rating: return Self.opt(song.rating)
        case .playcount: return .int(song.playcount)
        case .favorite: return .bool(song.favorite)
        case .art: return Self.opt(song.art)
        case .fileValues: return .strings(song.fileValues)
        case .userFields: return .strings(song.userFields)
        case .stickers: return .strings(song.stickers)
        case .guessed: return .strings(song.guessed)
        case .skipcount: return .int(song.skipcount)
        case .lastplayed: return Self.opt(song.lastplayed)
        case .bookmark: return Self.opt(song.bookmark)
        case .bookmarkSpeed: return Self.opt(song.bookmarkSpeed)
        }
    }

    /// Sets the field from a value already normalised for it (`normalize`); anything else clears it.
    public func set(_ raw: FieldValue, in song: inout Song) {
        let v = normalize(raw)
        switch self {
        case .path: song.path = v.string ?? ""
        case .size: song.size = v.int ?? 0
        case .mtime: song.mtime = v.int ?? 0
        case .fingerprint: song.fingerprint = v.string
        case .missing: song.missing = v.bool ?? false
        case .added: song.added = v.double ?? 0
        case .title: song.title = v.string
        case .artists: song.artists = v.strings ?? []
        case .artistCredit: song.artistCredit = v.string
        case .album: song.album = v.string
        case .albumartist: song.albumartist = v.string
        case .artistSort: song.artistSort = v.string
        case .albumartistSort: song.albumartistSort = v.string
        case .albumSort: song.albumSort = v.string
        case .performer: song.performer = v.string
        case .conductor: song.conductor = v.string
        case .label: song.label = v.string
        case .originalDate: song.originalDate = v.string
        case .composerSort: song.composerSort = v.string
        case .work: song.work = v.string
        case .movement: song.movement = v.string
        case .movementNumber: song.movementNumber = v.int
        case .movementTotal: song.movementTotal = v.int
        case .grouping: song.grouping = v.string
        case .ensemble: song.ensemble = v.string
        case .location: song.location = v.string
        case .track: song.track = v.int
        case .tracktotal: song.tracktotal = v.int
        case .disc: song.disc = v.int
        case .disctotal: song.disctotal = v.int
        case .year: song.year = v.int
        case .date: song.date = v.string
        case .genre: song.genre = v.string
        case .composer: song.composer = v.string
        case .compilation: song.compilation = v.bool ?? false
        case .comment: song.comment = v.string
        case .replaygainTrackGain: song.replaygainTrackGain = v.double
        case .replaygainTrackPeak: song.replaygainTrackPeak = v.double
        case .replaygainAlbumGain: song.replaygainAlbumGain = v.double
        case .replaygainAlbumPeak: song.replaygainAlbumPeak = v.double
        case .mbTrackID: song.mbTrackID = v.string
        case .mbAlbumID: song.mbAlbumID = v.string
        case .mbArtistID: song.mbArtistID = v.string
        case .mbAlbumArtistID: song.mbAlbumArtistID = v.string
        case .mbReleaseGroupID: song.mbReleaseGroupID = v.string
        case .mbReleaseTrackID: song.mbReleaseTrackID = v.string
        case .mbWorkID: song.mbWorkID = v.string
        case .duration: song.duration = v.double
        case .samplerate: song.samplerate = v.int
        case .bitdepth: song.bitdepth = v.int
        case .channels: song.channels = v.int
        case .bitrate: song.bitrate = v.int
        case .format: song.format = v.string
        case .start: song.start = v.int
        case .end: song.end = v.int
        case .sheet: song.sheet = v.string
        case .tags: song.tags = Song.normalizedTags(v.strings ?? [])
        case .rating: song.rating = v.int
        case .playcount: song.playcount = v.int ?? 0
        case .favorite: song.favorite = v.bool ?? false
        case .art: song.art = v.string
        case .fileValues: song.fileValues = (v.strings ?? []).sorted()
        case .userFields: song.userFields = v.strings ?? []
        case .stickers: song.stickers = v.strings ?? []
        case .guessed: song.guessed = v.strings ?? []
        case .skipcount: song.skipcount = v.int ?? 0
        case .lastplayed: song.lastplayed = v.double
        case .bookmark: song.bookmark = v.double
        case .bookmarkSpeed: song.bookmarkSpeed = v.double
        }
    }

    /// The canonical form of a value for this field, so that equal meanings compare equal
    /// (a JSON `3` for a double field is `.double(3)`; an empty string is no value).
    public func normalize(_ v: FieldValue) -> FieldValue {
        switch (kind, v) {
        case (_, .null): return .null
        case (.string, .string(let s)): return s.isEmpty ? .null : v
        case (.int, .int): return v
        case (.int, .double(let d)): return Int(exactly: d).map(FieldValue.int) ?? .null
        case (.double, .double): return v
        case (.double, .int(let i)): return .double(Double(i))
        case (.bool, .bool): return v
        case (.strings, .strings(let xs)):
            switch self {
            case .tags: return .strings(Song.normalizedTags(xs))
            case .userFields: return .strings(Song.normalizedUserFields(xs))
            case .stickers: return .strings(Song.normalizedStickers(xs))
            case .guessed: return .strings(Array(Set(xs.filter { !$0.isEmpty })).sorted())
            default: return .strings(xs.filter { !$0.isEmpty })
            }
        case (.strings, .string(let s)): return s.isEmpty ? .strings([]) : .strings([s])
        default: return .null
        }
    }

    /// The value as queries, taglists, sort keys and `--json` see it. The same as `value(in:)`
    /// but for `bitrate`, which the log keeps in TagLib's kbit/s and users see in bit/s, as
    /// beets stores it (`bitrate:320000..`, or `bitrate:320k..`).
    public func queryValue(in song: Song) -> FieldValue {
        if self == .bitrate { return song.bitrate.map { .int($0 * 1000) } ?? .null }
        return value(in: song)
    }

    private static func opt(_ s: String?) -> FieldValue { s.map(FieldValue.string) ?? .null }
    private static func opt(_ i: Int?) -> FieldValue { i.map(FieldValue.int) ?? .null }
    private static func opt(_ d: Double?) -> FieldValue { d.map(FieldValue.double) ?? .null }
}

extension Song {
    /// Tags as stored: no leading `#`, lower-cased, unique and sorted, so equal sets compare equal.
    public static func normalizedTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for t in tags {
            var s = Substring(t)
            while s.first == "#" { s = s.dropFirst() }
            let n = s.lowercased()
            if !n.isEmpty, seen.insert(n).inserted { out.append(n) }
        }
        return out.sorted()
    }
}

extension Song {
    /// User fields as stored: `name=value` entries with a non-empty name and value, one per name
    /// (the last wins), sorted by name, so equal sets compare equal.
    public static func normalizedUserFields(_ entries: [String]) -> [String] {
        var byName: [Substring: Substring] = [:]
        for e in entries {
            guard let eq = e.firstIndex(of: "="), eq != e.startIndex, e.index(after: eq) != e.endIndex else { continue }
            byName[e[..<eq]] = e[e.index(after: eq)...]
        }
        return byName.keys.sorted().map { $0 + "=" + byName[$0]! }
    }
}

extension FieldValue {
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var int: Int? { if case .int(let i) = self { i } else { nil } }
    public var double: Double? {
        switch self { case .double(let d): d; case .int(let i): Double(i); default: nil }
    }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var strings: [String]? { if case .strings(let xs) = self { xs } else { nil } }
}
