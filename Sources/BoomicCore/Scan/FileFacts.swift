/// What a scan learned about one audio file, already normalised (numbers parsed, `3/12` split).
///
/// BoomicMedia produces these from TagLib; the import generation function turns them into
/// assertions. Keeping it a plain value lets the import logic be tested without files.
public struct FileFacts: Hashable, Sendable, Codable {
    public var path: String
    public var size: Int
    /// Nanoseconds since 1970.
    public var mtime: Int
    public var fingerprint: String?

    public var title: String?
    public var artists: [String] = []
    /// The ARTIST credit when ARTISTS lists the artists and the credit says something else.
    public var artistCredit: String?
    public var album: String?
    public var albumartist: String?
    public var artistSort: String?
    public var albumartistSort: String?
    public var albumSort: String?
    public var performer: String?
    public var conductor: String?
    public var label: String?
    public var originalDate: String?
    public var composerSort: String?
    public var work: String?
    public var movement: String?
    public var movementNumber: Int?
    public var movementTotal: Int?
    public var grouping: String?
    public var ensemble: String?
    public var location: String?
    public var track: Int?
    public var tracktotal: Int?
    public var disc: Int?
    public var disctotal: Int?
    public var year: Int?
    public var date: String?
    public var genre: String?
    public var composer: String?
    public var compilation: Bool = false
    public var comment: String?
    public var replaygainTrackGain: Double?
    public var replaygainTrackPeak: Double?
    public var replaygainAlbumGain: Double?
    public var replaygainAlbumPeak: Double?
    public var mbTrackID: String?
    public var mbAlbumID: String?
    public var mbArtistID: String?
    public var mbAlbumArtistID: String?
    public var mbReleaseGroupID: String?
    public var mbReleaseTrackID: String?
    public var mbWorkID: String?

    public var duration: Double?
    public var samplerate: Int?
    public var bitdepth: Int?
    public var channels: Int?
    public var bitrate: Int?
    /// `flac`, `mp3`, `wav`, `m4a`, `ogg`, `opus`, …
    public var format: String?
    /// Content hash of the front cover (embedded, else a cover file beside it), once stored.
    public var art: String?
    /// One track of the file (`Song.start`, `end`, `sheet`): nil for the whole file.
    public var start: Int?
    public var end: Int?
    public var sheet: String?
    /// User fields a CUE sheet gives a new song (`isrc=…`, `catalognum=…`), `name=value`.
    public var sheetFields: [String] = []

    /// The file's chapters (an MP3's `CHAP` frames) in their table's order; empty for most files.
    public var chapters: [MediaChapter] = []
    /// The text of an embedded CUE sheet: the `CUESHEET` tag of a FLAC, WavPack or APE image.
    public var cueSheetTag: String?
    /// A FLAC's `CUESHEET` metadata block: the tracks' times in samples, without titles.
    public var cueSheetBlock: CueSheetBlock?

    public init(path: String, size: Int, mtime: Int) {
        self.path = path
        self.size = size
        self.mtime = mtime
    }
}

extension FileFacts {
    /// The song these facts describe, for a first import.
    public func song(id: SongID, added: Double) -> Song {
        var s = Song(id: id, path: path)
        s.added = added
        apply(to: &s)
        if !sheetFields.isEmpty { s.userFields = Song.normalizedUserFields(sheetFields) }
        return s
    }

    /// Writes the file's facts and tags into a song, leaving library-only fields alone.
    public func apply(to s: inout Song) {
        s.path = path; s.size = size; s.mtime = mtime; s.fingerprint = fingerprint; s.missing = false
        s.title = title; s.artists = artists; s.artistCredit = artistCredit; s.album = album; s.albumartist = albumartist
        s.artistSort = artistSort; s.albumartistSort = albumartistSort; s.albumSort = albumSort
        s.performer = performer; s.conductor = conductor; s.label = label; s.originalDate = originalDate
        s.composerSort = composerSort; s.work = work; s.movement = movement; s.grouping = grouping
        s.movementNumber = movementNumber; s.movementTotal = movementTotal
        s.ensemble = ensemble; s.location = location
        s.track = track; s.tracktotal = tracktotal; s.disc = disc; s.disctotal = disctotal
        s.year = year; s.date = date; s.genre = genre; s.composer = composer
        s.compilation = compilation; s.comment = comment
        s.replaygainTrackGain = replaygainTrackGain; s.replaygainTrackPeak = replaygainTrackPeak
        s.replaygainAlbumGain = replaygainAlbumGain; s.replaygainAlbumPeak = replaygainAlbumPeak
        s.mbTrackID = mbTrackID; s.mbAlbumID = mbAlbumID; s.mbArtistID = mbArtistID
        s.mbAlbumArtistID = mbAlbumArtistID; s.mbReleaseGroupID = mbReleaseGroupID
        s.mbReleaseTrackID = mbReleaseTrackID; s.mbWorkID = mbWorkID
        s.duration = duration; s.samplerate = samplerate; s.bitdepth = bitdepth
        s.channels = channels; s.bitrate = bitrate; s.format = format; s.art = art
        s.start = start; s.end = end; s.sheet = sheet
        // Normalise through the fields so that a song from facts equals one rebuilt from patches.
        for f in SongField.allCases { f.set(f.value(in: s), in: &s) }
    }
}
