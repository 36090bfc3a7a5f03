import BoomicCore

/// The tag types MPD clients know, by MPD's names, and the library field each reads. Only the
/// tags Boomic keeps are here: `tagtypes` lists exactly these, so a client never asks for one
/// it would always find empty.
public enum MPDTag: String, CaseIterable, Sendable {
    case artist = "Artist"
    case artistSort = "ArtistSort"
    case album = "Album"
    case albumSort = "AlbumSort"
    case albumArtist = "AlbumArtist"
    case albumArtistSort = "AlbumArtistSort"
    case title = "Title"
    case track = "Track"
    case genre = "Genre"
    case date = "Date"
    case originalDate = "OriginalDate"
    case composer = "Composer"
    case composerSort = "ComposerSort"
    case performer = "Performer"
    case conductor = "Conductor"
    case work = "Work"
    case movement = "Movement"
    case movementNumber = "MovementNumber"
    case ensemble = "Ensemble"
    case location = "Location"
    case grouping = "Grouping"
    case comment = "Comment"
    case disc = "Disc"
    case label = "Label"
    case musicBrainzArtistID = "MUSICBRAINZ_ARTISTID"
    case musicBrainzAlbumID = "MUSICBRAINZ_ALBUMID"
    case musicBrainzAlbumArtistID = "MUSICBRAINZ_ALBUMARTISTID"
    case musicBrainzTrackID = "MUSICBRAINZ_TRACKID"
    case musicBrainzReleaseGroupID = "MUSICBRAINZ_RELEASEGROUPID"
    case musicBrainzReleaseTrackID = "MUSICBRAINZ_RELEASETRACKID"
    case musicBrainzWorkID = "MUSICBRAINZ_WORKID"

    /// MPD reads tag names without regard to case (`artist`, `ARTIST`, `Artist`).
    public init?(name: String) {
        guard let tag = Self.byLowercasedName[name.lowercased()] else { return nil }
        self = tag
    }

    /// MPD's tag names that Boomic does not keep: accepted wherever a tag name is (a client's
    /// `tagtypes enable`, a filter, `list`), and always empty.
    public static func isUnkeptMPDName(_ name: String) -> Bool { unkept[name.lowercased()] != nil }

    /// MPD's spelling of an unkept tag's name (`name` → `Name`), as answers print it.
    static func unkeptName(_ name: String) -> String? { unkept[name.lowercased()] }

    private static let unkept: [String: String] = Dictionary(uniqueKeysWithValues: [
        // MPD 0.23's other tags (0.24's Mood, TitleSort, ShowMovement and DiscSubtitle are
        // unknown to it, so they are not here either).
        "Name",
    ].map { ($0.lowercased(), $0) })

    private static let byLowercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

    /// The field a filter on this tag compares.
    public var field: SongField {
        switch self {
        case .artist: .artists
        case .artistSort: .artistSort
        case .album: .album
        case .albumSort: .albumSort
        case .albumArtist: .albumartist
        case .albumArtistSort: .albumartistSort
        case .title: .title
        case .track: .track
        case .genre: .genre
        case .date: .date
        case .composer: .composer
        case .composerSort: .composerSort
        case .performer: .performer
        case .conductor: .conductor
        case .work: .work
        case .movement: .movement
        case .movementNumber: .movementNumber
        case .ensemble: .ensemble
        case .location: .location
        case .grouping: .grouping
        case .label: .label
        case .originalDate: .originalDate
        case .comment: .comment
        case .disc: .disc
        case .musicBrainzArtistID: .mbArtistID
        case .musicBrainzAlbumID: .mbAlbumID
        case .musicBrainzAlbumArtistID: .mbAlbumArtistID
        case .musicBrainzTrackID: .mbTrackID
        case .musicBrainzReleaseGroupID: .mbReleaseGroupID
        case .musicBrainzReleaseTrackID: .mbReleaseTrackID
        case .musicBrainzWorkID: .mbWorkID
        }
    }
}
