/// Every stored property of `Song`, by the name users and scripts know it by (DESIGN §4).
///
/// Assertions patch songs through this enum, diff walks it, queries and `modify` resolve user
/// field names with it. What each field is (type, accessors, how the log, the checkpoint,
/// `--json` and MPD carry it) is its entry in `SongField.table` (SongField+Table.swift): a new
/// `Song` property needs a case here and an entry there, or it is invisible to history.
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

    public static func < (a: SongField, b: SongField) -> Bool { a.ordinal < b.ordinal }

    public var name: String { rawValue }

    public var kind: Kind { Self.accessors[ordinal].kind }

    /// The table's accessors and the one flag every query's value asks, by `ordinal`: what a
    /// pass over every song reads, without a look at the rest of the entry.
    static let accessors = table.map(\.access)
    static let inBitsPerSecond = table.map { $0.json == .bitsPerSecond }
    static let joining = table.map(\.joinsValues)

    /// Fields that come from the file itself (a rescan refreshes them; `modify` may not set them).
    public var isFileFact: Bool { spec.isFileFact }

    /// Fields the library owns rather than the file's tags: a rescan never overwrites them.
    public var isLibraryOnly: Bool { spec.isLibraryOnly }

    /// What plays record: undo, redo, revert and rollback leave these alone unless `--plays`
    /// (listening to a song is a fact, not an edit to take back).
    public var isPlayField: Bool { spec.isPlayField }

    /// The play fields, in field order.
    public static let playFields: [SongField] = allCases.filter(\.isPlayField)

    /// Fields holding a moment (seconds since 1970): queries and taglists read dates for them
    /// (`lastplayed:2026-11..`), and `info` and `--json` show them as dates.
    public var isDate: Bool { spec.isDate }

    /// Fields whose value comes from the file's tags; a rescan of a changed file refreshes them.
    public var isTag: Bool { !isFileFact && !isLibraryOnly }

    public func value(in song: Song) -> FieldValue {
        switch Self.accessors[ordinal] {
        case .text(let get, _): return get(song).map(FieldValue.string) ?? .null
        case .number(let get, _, _): return get(song).map(FieldValue.int) ?? .null
        case .decimal(let get, _, _): return get(song).map(FieldValue.double) ?? .null
        case .flag(let get, _): return .bool(get(song))
        case .list(let get, _): return .strings(get(song))
        }
    }

    /// Sets the field from a value already normalised for it (`normalize`); anything else clears it.
    public func set(_ raw: FieldValue, in song: inout Song) {
        let v = normalize(raw)
        let spec = Self.table[ordinal]
        switch spec.access {
        case .text(_, let set): set(&song, v.string)
        case .number(_, let set, _): set(&song, v.int)
        case .decimal(_, let set, _): set(&song, v.double)
        case .flag(_, let set): set(&song, v.bool ?? false)
        case .list(_, let set):
            let xs = v.strings ?? []
            set(&song, spec.listForm == .sorted ? xs.sorted() : xs)
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
            switch spec.listForm {
            case .tags: return .strings(Song.normalizedTags(xs))
            case .userFields: return .strings(Song.normalizedUserFields(xs))
            case .stickers: return .strings(Song.normalizedStickers(xs))
            case .names: return .strings(Array(Set(xs.filter { !$0.isEmpty })).sorted())
            case .plain, .sorted, nil: return .strings(xs.filter { !$0.isEmpty })
            }
        case (.strings, .string(let s)): return s.isEmpty ? .strings([]) : .strings([s])
        default: return .null
        }
    }

    /// The value as queries, taglists, sort keys and `--json` see it. The same as `value(in:)`
    /// but for `bitrate`, which the log keeps in TagLib's kbit/s and users see in bit/s, as
    /// beets stores it (`bitrate:320000..`, or `bitrate:320k..`).
    public func queryValue(in song: Song) -> FieldValue {
        queryValue(of: value(in: song))
    }

    /// `queryValue(in:)` of a song whose `value(in:)` is `stored`.
    public func queryValue(of stored: FieldValue) -> FieldValue {
        if Self.inBitsPerSecond[ordinal], case .int(let n) = stored { return .int(n * 1000) }
        return stored
    }
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
