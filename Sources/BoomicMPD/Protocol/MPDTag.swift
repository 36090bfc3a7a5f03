import BoomicCore

/// The tag types MPD clients know, by MPD's names, and the library field each reads: the
/// field table's `mpdTag` column (`SongField.table`), so a field given an MPD name there is a
/// tag here, in `tagtypes`, filters, `list` and the song lines, with nothing else to add. Only
/// the tags Boomic keeps are here: `tagtypes` lists exactly these, so a client never asks for
/// one it would always find empty.
///
/// A tag is its place in `allCases` (its bit in an `MPDTagSet`); the tags MPD's commands
/// treat apart (Artist's credit, the fallbacks of AlbumArtist and the sort names, Date's year)
/// have names below.
public struct MPDTag: Hashable, Sendable, Comparable, CustomStringConvertible {
    let index: Int

    /// MPD's tag names, in the order MPD lists and prints them (its `tag_item_names`), as far as
    /// MPD 0.23 knows them; with `MUSICBRAINZ_RELEASEGROUPID` after the track id. A field the
    /// table gives a name outside this list comes after them.
    static let mpdOrder = [
        "Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Title", "Track", "Name",
        "Genre", "Date", "OriginalDate", "Composer", "ComposerSort", "Performer", "Conductor", "Work", "Movement",
        "MovementNumber", "Ensemble", "Location", "Grouping", "Comment", "Disc", "Label",
        "MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID", "MUSICBRAINZ_TRACKID",
        "MUSICBRAINZ_RELEASEGROUPID", "MUSICBRAINZ_RELEASETRACKID", "MUSICBRAINZ_WORKID",
    ]

    /// Each kept tag's name and field, in MPD's order.
    private static let entries: [(name: String, field: SongField)] = {
        let named = SongField.table.compactMap { spec in spec.mpdTag.map { (name: $0, field: spec.field) } }
        let rank = Dictionary(uniqueKeysWithValues: mpdOrder.enumerated().map { ($1, $0) })
        return named.sorted { (rank[$0.name] ?? Int.max, $0.field) < (rank[$1.name] ?? Int.max, $1.field) }
    }()

    public static let allCases: [MPDTag] = entries.indices.map(MPDTag.init(index:))
    private static let names = entries.map(\.name)
    private static let fields = entries.map(\.field)

    /// MPD's name (`AlbumArtist`), as answers print it.
    public var rawValue: String { Self.names[index] }
    public var description: String { rawValue }

    /// The field a filter on this tag compares.
    public var field: SongField { Self.fields[index] }

    /// The tag of exactly this name.
    public init?(rawValue: String) {
        guard let i = Self.entries.firstIndex(where: { $0.name == rawValue }) else { return nil }
        index = i
    }

    private init(index: Int) { self.index = index }

    /// MPD reads tag names without regard to case (`artist`, `ARTIST`, `Artist`).
    public init?(name: String) {
        guard let tag = Self.byLowercasedName[name.lowercased()] else { return nil }
        self = tag
    }

    public static func < (a: MPDTag, b: MPDTag) -> Bool { a.index < b.index }

    /// MPD's tag names that Boomic does not keep: accepted wherever a tag name is (a client's
    /// `tagtypes enable`, a filter, `list`), and always empty.
    public static func isUnkeptMPDName(_ name: String) -> Bool { unkept[name.lowercased()] != nil }

    /// MPD's spelling of an unkept tag's name (`name` → `Name`), as answers print it.
    static func unkeptName(_ name: String) -> String? { unkept[name.lowercased()] }

    // MPD 0.23's other tags (0.24's Mood, TitleSort, ShowMovement and DiscSubtitle are unknown
    // to it, so they are not here either).
    private static let unkept: [String: String] = Dictionary(uniqueKeysWithValues: mpdOrder
        .filter { name in !entries.contains { $0.name == name } }.map { ($0.lowercased(), $0) })

    private static let byLowercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

    /// The tag of this name; a name the table does not give is a bug.
    private static func named(_ name: String) -> MPDTag {
        guard let tag = MPDTag(rawValue: name) else { preconditionFailure("no field has MPD's tag \(name)") }
        return tag
    }

    public static let artist = named("Artist")
    public static let artistSort = named("ArtistSort")
    public static let album = named("Album")
    public static let albumSort = named("AlbumSort")
    public static let albumArtist = named("AlbumArtist")
    public static let albumArtistSort = named("AlbumArtistSort")
    public static let title = named("Title")
    public static let track = named("Track")
    public static let genre = named("Genre")
    public static let date = named("Date")
    public static let originalDate = named("OriginalDate")
    public static let composer = named("Composer")
    public static let composerSort = named("ComposerSort")
    public static let performer = named("Performer")
    public static let conductor = named("Conductor")
    public static let work = named("Work")
    public static let movement = named("Movement")
    public static let movementNumber = named("MovementNumber")
    public static let ensemble = named("Ensemble")
    public static let location = named("Location")
    public static let grouping = named("Grouping")
    public static let comment = named("Comment")
    public static let disc = named("Disc")
    public static let label = named("Label")
    public static let musicBrainzArtistID = named("MUSICBRAINZ_ARTISTID")
    public static let musicBrainzAlbumID = named("MUSICBRAINZ_ALBUMID")
    public static let musicBrainzAlbumArtistID = named("MUSICBRAINZ_ALBUMARTISTID")
    public static let musicBrainzTrackID = named("MUSICBRAINZ_TRACKID")
    public static let musicBrainzReleaseGroupID = named("MUSICBRAINZ_RELEASEGROUPID")
    public static let musicBrainzReleaseTrackID = named("MUSICBRAINZ_RELEASETRACKID")
    public static let musicBrainzWorkID = named("MUSICBRAINZ_WORKID")
}
