/// The field table: every song field, declared once. Read the column headings in
/// `SongFieldSpec`; "Adding a field" in Documentation/architecture.md says what else a new
/// field needs (its `Song` property, its tag names in TagLib's map).
///
/// In `SongField`'s order (a test checks it), so `SongField.spec` is one index. Checkpoint bits
/// are the codec's layout: a new field takes the next free bit (68, then on), never one in use.
extension SongField {
    public static let table: [SongFieldSpec] = [
        SongFieldSpec(.path, .text({ $0.path }, { $0.path = $1 ?? "" }), .file, log: .always, checkpoint: .header),
        SongFieldSpec(.size, .number({ $0.size }, { $0.size = $1 ?? 0 }, optional: false), .file, log: .always, checkpoint: .bit(0, .number), json: .hidden),
        SongFieldSpec(.mtime, .number({ $0.mtime }, { $0.mtime = $1 ?? 0 }, optional: false), .file, log: .always, checkpoint: .bit(1, .number), json: .hidden),
        SongFieldSpec(.fingerprint, .text({ $0.fingerprint }, { $0.fingerprint = $1 }), .file, checkpoint: .bit(2, .ownText), json: .hidden, indexed: true),
        SongFieldSpec(.missing, .flag({ $0.missing }, { $0.missing = $1 }), .file, log: .always, checkpoint: .bit(3, .flag)),
        SongFieldSpec(.added, .decimal({ $0.added }, { $0.added = $1 ?? 0 }, optional: false), .file, log: .always, checkpoint: .bit(4, .decimal), json: .date),
        SongFieldSpec(.title, .text({ $0.title }, { $0.title = $1 }), .tag, checkpoint: .bit(5, .ownText), mpd: "Title"),
        SongFieldSpec(.artists, .list({ $0.artists }, { $0.artists = $1 }), .tag, log: .always, checkpoint: .bit(6, .sharedList), mpd: "Artist", indexed: true, list: .plain),
        SongFieldSpec(.artistCredit, .text({ $0.artistCredit }, { $0.artistCredit = $1 }), .tag, checkpoint: .bit(7, .sharedText), json: .hidden, joins: true),
        SongFieldSpec(.album, .text({ $0.album }, { $0.album = $1 }), .tag, checkpoint: .bit(8, .sharedText), mpd: "Album", indexed: true),
        SongFieldSpec(.albumartist, .text({ $0.albumartist }, { $0.albumartist = $1 }), .tag, checkpoint: .bit(9, .sharedText), mpd: "AlbumArtist", joins: true, indexed: true),
        SongFieldSpec(.artistSort, .text({ $0.artistSort }, { $0.artistSort = $1 }), .tag, checkpoint: .bit(46, .sharedText), mpd: "ArtistSort", joins: true),
        SongFieldSpec(.albumartistSort, .text({ $0.albumartistSort }, { $0.albumartistSort = $1 }), .tag, checkpoint: .bit(47, .sharedText), mpd: "AlbumArtistSort", joins: true),
        SongFieldSpec(.albumSort, .text({ $0.albumSort }, { $0.albumSort = $1 }), .tag, checkpoint: .bit(48, .sharedText), mpd: "AlbumSort"),
        SongFieldSpec(.performer, .text({ $0.performer }, { $0.performer = $1 }), .tag, checkpoint: .bit(49, .sharedText), mpd: "Performer", joins: true),
        SongFieldSpec(.conductor, .text({ $0.conductor }, { $0.conductor = $1 }), .tag, checkpoint: .bit(50, .sharedText), mpd: "Conductor", joins: true),
        SongFieldSpec(.label, .text({ $0.label }, { $0.label = $1 }), .tag, checkpoint: .bit(51, .sharedText), mpd: "Label"),
        SongFieldSpec(.originalDate, .text({ $0.originalDate }, { $0.originalDate = $1 }), .tag, checkpoint: .bit(52, .sharedText), mpd: "OriginalDate"),
        SongFieldSpec(.composerSort, .text({ $0.composerSort }, { $0.composerSort = $1 }), .tag, checkpoint: .bit(53, .sharedText), mpd: "ComposerSort", joins: true, rare: true),
        SongFieldSpec(.work, .text({ $0.work }, { $0.work = $1 }), .tag, checkpoint: .bit(54, .sharedText), mpd: "Work", rare: true),
        SongFieldSpec(.movement, .text({ $0.movement }, { $0.movement = $1 }), .tag, checkpoint: .bit(55, .sharedText), mpd: "Movement", rare: true),
        SongFieldSpec(.movementNumber, .number({ $0.movementNumber }, { $0.movementNumber = $1 }, optional: true), .tag, checkpoint: .bit(56, .number), mpd: "MovementNumber", rare: true),
        SongFieldSpec(.movementTotal, .number({ $0.movementTotal }, { $0.movementTotal = $1 }, optional: true), .tag, checkpoint: .bit(57, .number), rare: true),
        SongFieldSpec(.grouping, .text({ $0.grouping }, { $0.grouping = $1 }), .tag, checkpoint: .bit(58, .sharedText), mpd: "Grouping", rare: true),
        SongFieldSpec(.ensemble, .text({ $0.ensemble }, { $0.ensemble = $1 }), .tag, checkpoint: .bit(62, .sharedText), mpd: "Ensemble", joins: true, rare: true),
        SongFieldSpec(.location, .text({ $0.location }, { $0.location = $1 }), .tag, checkpoint: .bit(63, .sharedText), mpd: "Location", rare: true),
        SongFieldSpec(.track, .number({ $0.track }, { $0.track = $1 }, optional: true), .tag, checkpoint: .bit(10, .number), mpd: "Track"),
        SongFieldSpec(.tracktotal, .number({ $0.tracktotal }, { $0.tracktotal = $1 }, optional: true), .tag, checkpoint: .bit(11, .number)),
        SongFieldSpec(.disc, .number({ $0.disc }, { $0.disc = $1 }, optional: true), .tag, checkpoint: .bit(12, .number), mpd: "Disc"),
        SongFieldSpec(.disctotal, .number({ $0.disctotal }, { $0.disctotal = $1 }, optional: true), .tag, checkpoint: .bit(13, .number)),
        SongFieldSpec(.year, .number({ $0.year }, { $0.year = $1 }, optional: true), .tag, checkpoint: .bit(14, .number)),
        SongFieldSpec(.date, .text({ $0.date }, { $0.date = $1 }), .tag, checkpoint: .bit(15, .sharedText), mpd: "Date"),
        SongFieldSpec(.genre, .text({ $0.genre }, { $0.genre = $1 }), .tag, checkpoint: .bit(16, .sharedText), mpd: "Genre", joins: true),
        SongFieldSpec(.composer, .text({ $0.composer }, { $0.composer = $1 }), .tag, checkpoint: .bit(17, .sharedText), mpd: "Composer", joins: true),
        SongFieldSpec(.compilation, .flag({ $0.compilation }, { $0.compilation = $1 }), .tag, log: .always, checkpoint: .bit(18, .flag)),
        SongFieldSpec(.comment, .text({ $0.comment }, { $0.comment = $1 }), .tag, checkpoint: .bit(19, .ownText), mpd: "Comment"),
        SongFieldSpec(.replaygainTrackGain, .decimal({ $0.replaygainTrackGain }, { $0.replaygainTrackGain = $1 }, optional: true), .tag, old: "replaygainTrackGain", checkpoint: .bit(20, .decimal)),
        SongFieldSpec(.replaygainTrackPeak, .decimal({ $0.replaygainTrackPeak }, { $0.replaygainTrackPeak = $1 }, optional: true), .tag, old: "replaygainTrackPeak", checkpoint: .bit(21, .decimal)),
        SongFieldSpec(.replaygainAlbumGain, .decimal({ $0.replaygainAlbumGain }, { $0.replaygainAlbumGain = $1 }, optional: true), .tag, old: "replaygainAlbumGain", checkpoint: .bit(22, .decimal)),
        SongFieldSpec(.replaygainAlbumPeak, .decimal({ $0.replaygainAlbumPeak }, { $0.replaygainAlbumPeak = $1 }, optional: true), .tag, old: "replaygainAlbumPeak", checkpoint: .bit(23, .decimal)),
        SongFieldSpec(.mbTrackID, .text({ $0.mbTrackID }, { $0.mbTrackID = $1 }), .tag, old: "mbTrackID", checkpoint: .bit(24, .ownText), mpd: "MUSICBRAINZ_TRACKID"),
        SongFieldSpec(.mbAlbumID, .text({ $0.mbAlbumID }, { $0.mbAlbumID = $1 }), .tag, old: "mbAlbumID", checkpoint: .bit(25, .sharedText), mpd: "MUSICBRAINZ_ALBUMID"),
        SongFieldSpec(.mbArtistID, .text({ $0.mbArtistID }, { $0.mbArtistID = $1 }), .tag, old: "mbArtistID", checkpoint: .bit(26, .sharedText), mpd: "MUSICBRAINZ_ARTISTID", joins: true),
        SongFieldSpec(.mbAlbumArtistID, .text({ $0.mbAlbumArtistID }, { $0.mbAlbumArtistID = $1 }), .tag, old: "mbAlbumArtistID", checkpoint: .bit(27, .sharedText), mpd: "MUSICBRAINZ_ALBUMARTISTID", joins: true),
        SongFieldSpec(.mbReleaseGroupID, .text({ $0.mbReleaseGroupID }, { $0.mbReleaseGroupID = $1 }), .tag, old: "mbReleaseGroupID", checkpoint: .bit(28, .sharedText), mpd: "MUSICBRAINZ_RELEASEGROUPID"),
        SongFieldSpec(.mbReleaseTrackID, .text({ $0.mbReleaseTrackID }, { $0.mbReleaseTrackID = $1 }), .tag, checkpoint: .bit(59, .ownText), mpd: "MUSICBRAINZ_RELEASETRACKID"),
        SongFieldSpec(.mbWorkID, .text({ $0.mbWorkID }, { $0.mbWorkID = $1 }), .tag, checkpoint: .bit(60, .sharedText), mpd: "MUSICBRAINZ_WORKID", joins: true, rare: true),
        SongFieldSpec(.duration, .decimal({ $0.duration }, { $0.duration = $1 }, optional: true), .file, checkpoint: .bit(29, .decimal)),
        SongFieldSpec(.samplerate, .number({ $0.samplerate }, { $0.samplerate = $1 }, optional: true), .file, checkpoint: .bit(30, .number)),
        SongFieldSpec(.bitdepth, .number({ $0.bitdepth }, { $0.bitdepth = $1 }, optional: true), .file, checkpoint: .bit(31, .number)),
        SongFieldSpec(.channels, .number({ $0.channels }, { $0.channels = $1 }, optional: true), .file, checkpoint: .bit(32, .number)),
        SongFieldSpec(.bitrate, .number({ $0.bitrate }, { $0.bitrate = $1 }, optional: true), .file, checkpoint: .bit(33, .number), json: .bitsPerSecond),
        SongFieldSpec(.format, .text({ $0.format }, { $0.format = $1 }), .file, checkpoint: .bit(34, .sharedText)),
        SongFieldSpec(.start, .number({ $0.start }, { $0.start = $1 }, optional: true), .file, checkpoint: .bit(65, .number), rare: true),
        SongFieldSpec(.end, .number({ $0.end }, { $0.end = $1 }, optional: true), .file, checkpoint: .bit(66, .number), rare: true),
        SongFieldSpec(.sheet, .text({ $0.sheet }, { $0.sheet = $1 }), .file, checkpoint: .bit(67, .sharedText), rare: true),
        SongFieldSpec(.tags, .list({ $0.tags }, { $0.tags = $1 }), .library, log: .always, checkpoint: .bit(35, .sharedList), json: .hashTags, indexed: true, list: .tags),
        SongFieldSpec(.rating, .number({ $0.rating }, { $0.rating = $1 }, optional: true), .library, checkpoint: .bit(36, .number)),
        SongFieldSpec(.playcount, .number({ $0.playcount }, { $0.playcount = $1 ?? 0 }, optional: false), .play, log: .always, checkpoint: .bit(37, .number)),
        SongFieldSpec(.favorite, .flag({ $0.favorite }, { $0.favorite = $1 }), .library, log: .always, checkpoint: .bit(38, .flag)),
        SongFieldSpec(.art, .text({ $0.art }, { $0.art = $1 }), .tag, checkpoint: .bit(39, .sharedText)),
        SongFieldSpec(.fileValues, .list({ $0.fileValues }, { $0.fileValues = $1 }), .file, log: .always, old: "fileValues", checkpoint: .bit(40, .ownList), json: .hidden, list: .sorted),
        SongFieldSpec(.userFields, .list({ $0.userFields }, { $0.userFields = $1 }), .library, old: "userFields", checkpoint: .bit(41, .sharedList), json: .topLevelKeys, list: .userFields),
        SongFieldSpec(.stickers, .list({ $0.stickers }, { $0.stickers = $1 }), .library, checkpoint: .bit(61, .ownList), json: .nameValueMap, rare: true, list: .stickers),
        SongFieldSpec(.guessed, .list({ $0.guessed }, { $0.guessed = $1 }), .library, checkpoint: .bit(64, .sharedList), rare: true, list: .names),
        SongFieldSpec(.skipcount, .number({ $0.skipcount }, { $0.skipcount = $1 ?? 0 }, optional: false), .play, checkpoint: .bit(42, .number)),
        SongFieldSpec(.lastplayed, .decimal({ $0.lastplayed }, { $0.lastplayed = $1 }, optional: true), .play, checkpoint: .bit(43, .decimal), json: .date),
        SongFieldSpec(.bookmark, .decimal({ $0.bookmark }, { $0.bookmark = $1 }, optional: true), .play, checkpoint: .bit(44, .decimal)),
        SongFieldSpec(.bookmarkSpeed, .decimal({ $0.bookmarkSpeed }, { $0.bookmarkSpeed = $1 }, optional: true), .play, checkpoint: .bit(45, .decimal)),
    ]

    /// The field's entry in the table.
    @inline(__always)
    public var spec: SongFieldSpec { Self.table[ordinal] }

    /// The field's place in `allCases` and in `table`. A Swift enum without payloads is stored as
    /// its case's index in declaration order, in one byte while it has at most 256 cases: that
    /// index, read without the array search `allCases.firstIndex(of:)` would cost.
    @inline(__always)
    public var ordinal: Int {
        MemoryLayout<SongField>.size == 1 ? Int(unsafeBitCast(self, to: UInt8.self)) : Self.allCases.firstIndex(of: self)!
    }
}
