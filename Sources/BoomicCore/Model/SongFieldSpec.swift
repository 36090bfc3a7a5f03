/// Everything Boomic knows about one song field, declared once in `SongField.table`: its name,
/// its type, how to read and set it on a `Song`, how the log and the checkpoint write it, how
/// `--json` shows it and which MPD tag reads it.
///
/// The log's rows, the checkpoint codec, `SongField.value(in:)` and `set(_:in:)` (and with them
/// queries, formats, `modify`, diff and history), `--json` and MPD's tag names are all loops
/// over the table, so a new field is one entry there (plus, for a field files carry, its tag
/// names in the TagLib shim's map and `FileFacts`). A column store iterates the same table.
///
/// A class, so that a look-up in the table on a hot path (a query's pass over every song) takes
/// a reference, not a copy of every column.
public final class SongFieldSpec: Sendable {
    public let field: SongField
    /// The accessors on `Song`: read the value, set it as given (no normalising: `SongField.set`
    /// normalises first).
    public let access: Access
    public let origin: Origin
    /// Whether the log writes the field when it has its default value (nil, 0, false, empty).
    public let log: LogPresence
    /// The key add and delete rows used before the log spoke the user's names (frozen: a field
    /// added since never had another spelling).
    public let oldLogKey: String?
    public let checkpoint: CheckpointSlot
    public let json: JSONForm
    /// MPD's name for the tag that reads this field (`AlbumArtist`), nil when MPD has none.
    public let mpdTag: String?
    /// Whether the import joins a file's several values into this one text with "; ".
    public let joinsValues: Bool
    /// Whether it lives in the box most songs lack (`Song+RareFields.swift`): a pass that finds
    /// `Song.hasRareFields` false skips it.
    public let isRare: Bool
    /// Whether the basis keeps an index from its values to songs (path, fingerprint, artists,
    /// album and album artist, tags): what a column store keeps sorted first.
    public let isIndexed: Bool
    /// How a list field is normalised (`SongField.normalize`); nil for the others.
    public let listForm: ListForm?

    public var name: String { field.rawValue }

    /// An entry of the table; what a field does not say takes the common case.
    init(_ field: SongField, _ access: Access, _ origin: Origin, log: LogPresence = .whenSet, old: String? = nil,
         checkpoint: CheckpointSlot, json: JSONForm = .value, mpd: String? = nil, joins: Bool = false,
         rare: Bool = false, indexed: Bool = false, list: ListForm? = nil) {
        self.field = field
        self.access = access
        self.origin = origin
        self.log = log
        self.oldLogKey = old
        self.checkpoint = checkpoint
        self.json = json
        self.mpdTag = mpd
        self.joinsValues = joins
        self.isRare = rare
        self.isIndexed = indexed
        self.listForm = list
    }

    /// How a value is typed, and the accessors that read and set it.
    public enum Access: Sendable {
        case text(@Sendable (Song) -> String?, @Sendable (inout Song, String?) -> Void)
        /// `optional` false: the field is a plain number whose absence is 0 (`size`, `playcount`).
        case number(@Sendable (Song) -> Int?, @Sendable (inout Song, Int?) -> Void, optional: Bool)
        case decimal(@Sendable (Song) -> Double?, @Sendable (inout Song, Double?) -> Void, optional: Bool)
        case flag(@Sendable (Song) -> Bool, @Sendable (inout Song, Bool) -> Void)
        case list(@Sendable (Song) -> [String], @Sendable (inout Song, [String]) -> Void)

        public var kind: SongField.Kind {
            switch self {
            case .text: .string
            case .number: .int
            case .decimal: .double
            case .flag: .bool
            case .list: .strings
            }
        }
    }

    /// Where a field's value comes from.
    public enum Origin: Sendable {
        /// The file itself: a rescan refreshes it, `modify` may not set it.
        case file
        /// The file's tags: a rescan of a changed file refreshes it, `modify` and `write` edit it.
        case tag
        /// The library's own: a rescan never overwrites it.
        case library
        /// What plays record: the library's own, and left alone by undo unless `--plays`.
        case play
    }

    public enum LogPresence: Sendable {
        /// Written in every add and delete row (required when read).
        case always
        /// Left out while it has its default value, so rows written before it existed read the same.
        case whenSet
    }

    /// Where the checkpoint's song form (`SongCodec`) puts the field.
    public enum CheckpointSlot: Sendable, Equatable {
        /// Always written, right after the presence bitmaps (the path).
        case header
        /// A bit of the presence bitmaps (0–63 the first, 64–127 the second) and how the value
        /// is written when the bit is set; values are written in bit order.
        case bit(Int, CheckpointForm)
    }

    public enum CheckpointForm: Sendable, Equatable {
        /// A string written in place: values unique to a song (title, ids).
        case ownText
        /// An index into the chunk's string table: values many songs share (album, genre).
        case sharedText
        case number
        /// The bits of a double.
        case decimal
        /// No bytes: the bit is the value.
        case flag
        /// An index into the chunk's list table (artists, tags).
        case sharedList
        /// A count and each string in place (file values, stickers).
        case ownList
    }

    /// How `--json` shows the field.
    public enum JSONForm: Sendable, Equatable {
        /// Not a key of its own (the fingerprint, the file values; the credit shows as `artist`).
        case hidden
        /// The value under the field's name: a number as a number, a list as an array.
        case value
        /// A number the log keeps in kbit/s, shown in bit/s (`bitrate`, as beets stores it).
        case bitsPerSecond
        /// A moment, shown as an ISO 8601 date.
        case date
        /// Tags with their `#`.
        case hashTags
        /// `name=value` entries as an object (`{"playCount": "3"}`).
        case nameValueMap
        /// `name=value` entries as keys of the song's object (the user's own fields).
        case topLevelKeys
    }

    /// How a list field's entries are normalised.
    public enum ListForm: Sendable {
        /// Empty entries dropped, order kept (artists).
        case plain
        /// Empty entries dropped, sorted when set (file values).
        case sorted
        /// Tags: no `#`, lower-cased, unique, sorted (`Song.normalizedTags`).
        case tags
        /// `Song.normalizedUserFields`.
        case userFields
        /// `Song.normalizedStickers`.
        case stickers
        /// Field names: unique, sorted (the guessed fields).
        case names
    }

    public var kind: SongField.Kind { access.kind }
    public var isFileFact: Bool { origin == .file }
    public var isLibraryOnly: Bool { origin == .library || origin == .play }
    public var isPlayField: Bool { origin == .play }
    /// A moment (seconds since 1970): queries read dates for it, `info` and `--json` show dates.
    public var isDate: Bool { json == .date }
    /// Whether queries may sort by it (`ls -s`): every field but the user's own, which are
    /// sorted by their own names.
    public var isSortable: Bool { field != .userFields }
    /// A plain number whose absence is 0, or a plain flag: never nil.
    public var isOptional: Bool {
        switch access {
        case .text: true
        case .number(_, _, let optional), .decimal(_, _, let optional): optional
        case .flag, .list: false
        }
    }

    /// Whether the song's value differs from the field's default (nil, 0, false, empty;
    /// a double bit for bit, so -0.0 counts): the checkpoint writes exactly these.
    @inline(__always)
    public func isSet(in song: Song) -> Bool {
        switch access {
        case .text(let get, _): return get(song) != nil
        case .number(let get, _, let optional):
            guard let v = get(song) else { return false }
            return optional || v != 0
        case .decimal(let get, _, let optional):
            guard let v = get(song) else { return false }
            return optional || v.bitPattern != 0
        case .flag(let get, _): return get(song)
        case .list(let get, _): return !get(song).isEmpty
        }
    }
}

extension SongFieldSpec.Origin: Equatable {}
