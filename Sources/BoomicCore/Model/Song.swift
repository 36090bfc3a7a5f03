/// One audio file in the library, with what its tags say and what the user changed.
///
/// A value: the basis holds songs in persistent collections, so a changed song is a new value and
/// earlier snapshots keep the old one. Every stored property has a `SongField`, which is how
/// assertions patch it field by field.
///
/// The fields live in one shared, copy-on-write box, so a `Song` is two words plus its id: the
/// basis copies, hashes into trees and sorts 50,000 of them on every open and every `ls`, and
/// moving 600-byte values around would be most of that cost.
public struct Song: Identifiable, Hashable, Sendable, Codable {
    public var id: SongID
    private var storage: Storage

    /// Every stored field but the id, as plain values. The log reads and writes them through
    /// the field table (Song+LogCoding.swift).
    struct Fields: Hashable, Sendable {
        var path: String
        // The optional numbers are stored as plain values with a bit each in `present`
        // (Song+CompactFields.swift): an `Int?` or a `Double?` takes 16 bytes in a struct, its
        // 9 rounded up, so 18 of them as optionals would take 288 bytes of the box (14 MB at 50,000
        // songs). The flags fill the word the bits leave.
        var present: UInt32 = 0
        var missing: Bool = false
        var compilation: Bool = false
        var favorite: Bool = false
        // Where it is and what the file looked like when last scanned (for rescans and write-back).
        var size: Int = 0
        var mtime: Int = 0
        var _fingerprint: CompactDigest?
        var added: Double = 0
        // Tags.
        var title: String?
        var artists: [String] = []
        // Optional, so the synthesized Codable omits it when absent: rows written before credits
        // were kept decode unchanged, and most songs have none.
        var artistCredit: String?
        var album: String?
        var albumartist: String?
        // Sort names (ARTISTSORT, ALBUMARTISTSORT, ALBUMSORT): optional, so rows written before
        // they were kept decode unchanged.
        var artistSort: String?
        var albumartistSort: String?
        var albumSort: String?
        // Who performed and conducted (several joined with "; "), the label and the original
        // release date, as Picard writes them and MPD clients show them; optional likewise.
        var performer: String?
        var conductor: String?
        var label: String?
        var originalDate: String?
        // The work, movement, grouping, composer sort name and two MusicBrainz ids: a box of
        // their own, nil for most songs (Song+RareFields.swift).
        var rare: RareBox?
        var date: String?
        var genre: String?
        var composer: String?
        var comment: String?
        var _mbTrackID: CompactDigest?
        var mbAlbumID: String?
        var mbArtistID: String?
        var mbAlbumArtistID: String?
        var mbReleaseGroupID: String?
        var _mbReleaseTrackID: CompactDigest?
        // Audio properties.
        var format: String?
        // Library-only facts.
        var tags: [String] = []
        var playcount: Int = 0
        var art: String?
        var fileValues: [String] = []
        // Optional so that the log omits it when empty: add rows written before user fields
        // existed decode unchanged, and rows without any stay as they were.
        var userFields: [String]?
        // Plays (kind `play`): the log omits them while unset (0 or nil), so rows written before
        // the player existed decode unchanged.
        var skipcount: Int = 0
        // The optional numbers' values, 0 while absent so that equal songs compare and hash
        // equal (Song+CompactFields.swift).
        var _track: Int = 0
        var _tracktotal: Int = 0
        var _disc: Int = 0
        var _disctotal: Int = 0
        var _year: Int = 0
        var _samplerate: Int = 0
        var _bitdepth: Int = 0
        var _channels: Int = 0
        var _bitrate: Int = 0
        var _rating: Int = 0
        var _replaygainTrackGain: Double = 0
        var _replaygainTrackPeak: Double = 0
        var _replaygainAlbumGain: Double = 0
        var _replaygainAlbumPeak: Double = 0
        var _duration: Double = 0
        var _lastplayed: Double = 0
        var _bookmark: Double = 0
        var _bookmarkSpeed: Double = 0
    }

    /// The box. Its `fields` are only written through `mutate`, which first copies the box unless
    /// this song holds the only reference (`isKnownUniquelyReferenced`): a box that two songs,
    /// or two threads, can see is never written, which is what makes the unchecked Sendable safe.
    ///
    /// `fields` is read with no dynamic exclusivity check: a pass over 50,000 songs reads it a
    /// million times. The runtime's check only catches two overlapping accesses on one thread,
    /// and none can overlap: every write is `mutate`'s, whose bodies (`{ $0.title = newValue }`,
    /// `Fields.setRare`) touch only the `Fields` they are handed, never a song. (Without the
    /// attribute the optimizer removes the checks only while no write can call out, and a setter
    /// that does, such as `setRare`, puts them back on every read: `listallinfo` takes 76 ms instead of 58.)
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private mutating func mutate(_ body: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        body(&storage.fields)
    }

    public init(id: SongID, path: String) {
        self.id = id
        self.storage = Storage(Fields(path: path))
    }

    // Where it is and what the file looked like when last scanned (for rescans and write-back).
    public var path: String {
        get { storage.fields.path }
        set { mutate { $0.path = newValue } }
    }
    public var size: Int {
        get { storage.fields.size }
        set { mutate { $0.size = newValue } }
    }
    /// Modification time in whole nanoseconds since 1970, as stat(2) gives it.
    public var mtime: Int {
        get { storage.fields.mtime }
        set { mutate { $0.mtime = newValue } }
    }
    /// FLAC's STREAMINFO MD5, else a hash of the audio bytes: how a moved file is recognised.
    public var fingerprint: String? {
        get { storage.fields.fingerprint }
        set { mutate { $0.fingerprint = newValue } }
    }
    /// The file was not found at the last rescan. Kept, not forgotten, until the user removes it.
    public var missing: Bool {
        get { storage.fields.missing }
        set { mutate { $0.missing = newValue } }
    }
    /// When it was first imported, seconds since 1970 (passed in by the caller; Core has no clock).
    public var added: Double {
        get { storage.fields.added }
        set { mutate { $0.added = newValue } }
    }
    // Tags.
    public var title: String? {
        get { storage.fields.title }
        set { mutate { $0.title = newValue } }
    }
    /// Every artist the file names: what `artists:` queries, albums and artists go by.
    public var artists: [String] {
        get { storage.fields.artists }
        set { mutate { $0.artists = newValue } }
    }
    /// The artist as the file credits it (ARTIST `A feat. B`, as Picard and beets write it next to
    /// the list in ARTISTS), kept only when it says something else than `artists` joined: beets
    /// likewise keeps `artist` and `artists` apart. `artist` shows it.
    public var artistCredit: String? {
        get { storage.fields.artistCredit }
        set { mutate { $0.artistCredit = newValue } }
    }
    public var album: String? {
        get { storage.fields.album }
        set { mutate { $0.album = newValue } }
    }
    public var albumartist: String? {
        get { storage.fields.albumartist }
        set { mutate { $0.albumartist = newValue } }
    }
    /// How the artist sorts ("Beatles, The"), as Picard, beets and iTunes write it: MPD clients
    /// sort and group by it, so that The Beatles are found under B.
    public var artistSort: String? {
        get { storage.fields.artistSort }
        set { mutate { $0.artistSort = newValue } }
    }
    public var albumartistSort: String? {
        get { storage.fields.albumartistSort }
        set { mutate { $0.albumartistSort = newValue } }
    }
    public var albumSort: String? {
        get { storage.fields.albumSort }
        set { mutate { $0.albumSort = newValue } }
    }
    /// The performers (PERFORMER; several joined with "; "), often `Name (instrument)`.
    public var performer: String? {
        get { storage.fields.performer }
        set { mutate { $0.performer = newValue } }
    }
    public var conductor: String? {
        get { storage.fields.conductor }
        set { mutate { $0.conductor = newValue } }
    }
    /// The record label (LABEL; ID3's TPUB).
    public var label: String? {
        get { storage.fields.label }
        set { mutate { $0.label = newValue } }
    }
    /// When the recording was first released (ORIGINALDATE; ID3's TDOR, TORY), as the file
    /// spells it.
    public var originalDate: String? {
        get { storage.fields.originalDate }
        set { mutate { $0.originalDate = newValue } }
    }
    /// Whether the song has any of the fields most songs lack (`RareFields`: the work and
    /// movement, the grouping, the composer's sort name, work ids, stickers): one check where
    /// a pass over every song would otherwise ask each of them of each song.
    public var hasRareFields: Bool { storage.fields.rare != nil }

    /// The composer as they sort ("Beethoven, Ludwig van"; COMPOSERSORT, ID3's TSOC), several
    /// joined with "; ".
    public var composerSort: String? {
        get { storage.fields.composerSort }
        set { mutate { $0.composerSort = newValue } }
    }
    /// The work a recording performs ("Symphony No. 5 in C minor, op. 67"; WORK, ID3's
    /// TXXX:WORK, MP4's ©wrk), by which classical listeners browse.
    public var work: String? {
        get { storage.fields.work }
        set { mutate { $0.work = newValue } }
    }
    /// The movement's name (MOVEMENTNAME; ID3's MVNM, MP4's ©mvn).
    public var movement: String? {
        get { storage.fields.movement }
        set { mutate { $0.movement = newValue } }
    }
    /// The movement's number in its work, and how many the work has (Vorbis MOVEMENT and
    /// MOVEMENTTOTAL; ID3's MVIN `1/4`; MP4's ©mvi and ©mvc).
    public var movementNumber: Int? {
        get { storage.fields.movementNumber }
        set { mutate { $0.movementNumber = newValue } }
    }
    public var movementTotal: Int? {
        get { storage.fields.movementTotal }
        set { mutate { $0.movementTotal = newValue } }
    }
    /// The ensemble that plays (ENSEMBLE, as MPD reads it; several joined with "; ").
    public var ensemble: String? {
        get { storage.fields.ensemble }
        set { mutate { $0.ensemble = newValue } }
    }
    /// Where it was recorded (LOCATION).
    public var location: String? {
        get { storage.fields.location }
        set { mutate { $0.location = newValue } }
    }
    /// The content group (GROUPING; ID3's TIT1 as MPD and Picard read it, or GRP1 where
    /// iTunes wrote it; MP4's ©grp).
    public var grouping: String? {
        get { storage.fields.grouping }
        set { mutate { $0.grouping = newValue } }
    }
    public var track: Int? {
        get { storage.fields.track }
        set { mutate { $0.track = newValue } }
    }
    public var tracktotal: Int? {
        get { storage.fields.tracktotal }
        set { mutate { $0.tracktotal = newValue } }
    }
    public var disc: Int? {
        get { storage.fields.disc }
        set { mutate { $0.disc = newValue } }
    }
    public var disctotal: Int? {
        get { storage.fields.disctotal }
        set { mutate { $0.disctotal = newValue } }
    }
    public var year: Int? {
        get { storage.fields.year }
        set { mutate { $0.year = newValue } }
    }
    /// The full date as tagged (`1969-09-26`), when it says more than the year.
    public var date: String? {
        get { storage.fields.date }
        set { mutate { $0.date = newValue } }
    }
    public var genre: String? {
        get { storage.fields.genre }
        set { mutate { $0.genre = newValue } }
    }
    public var composer: String? {
        get { storage.fields.composer }
        set { mutate { $0.composer = newValue } }
    }
    public var compilation: Bool {
        get { storage.fields.compilation }
        set { mutate { $0.compilation = newValue } }
    }
    public var comment: String? {
        get { storage.fields.comment }
        set { mutate { $0.comment = newValue } }
    }
    public var replaygainTrackGain: Double? {
        get { storage.fields.replaygainTrackGain }
        set { mutate { $0.replaygainTrackGain = newValue } }
    }
    public var replaygainTrackPeak: Double? {
        get { storage.fields.replaygainTrackPeak }
        set { mutate { $0.replaygainTrackPeak = newValue } }
    }
    public var replaygainAlbumGain: Double? {
        get { storage.fields.replaygainAlbumGain }
        set { mutate { $0.replaygainAlbumGain = newValue } }
    }
    public var replaygainAlbumPeak: Double? {
        get { storage.fields.replaygainAlbumPeak }
        set { mutate { $0.replaygainAlbumPeak = newValue } }
    }
    public var mbTrackID: String? {
        get { storage.fields.mbTrackID }
        set { mutate { $0.mbTrackID = newValue } }
    }
    public var mbAlbumID: String? {
        get { storage.fields.mbAlbumID }
        set { mutate { $0.mbAlbumID = newValue } }
    }
    public var mbArtistID: String? {
        get { storage.fields.mbArtistID }
        set { mutate { $0.mbArtistID = newValue } }
    }
    public var mbAlbumArtistID: String? {
        get { storage.fields.mbAlbumArtistID }
        set { mutate { $0.mbAlbumArtistID = newValue } }
    }
    public var mbReleaseGroupID: String? {
        get { storage.fields.mbReleaseGroupID }
        set { mutate { $0.mbReleaseGroupID = newValue } }
    }
    public var mbReleaseTrackID: String? {
        get { storage.fields.mbReleaseTrackID }
        set { mutate { $0.mbReleaseTrackID = newValue } }
    }
    /// The works' MusicBrainz ids (several joined with "; ", for a medley).
    public var mbWorkID: String? {
        get { storage.fields.mbWorkID }
        set { mutate { $0.mbWorkID = newValue } }
    }
    // Audio properties.
    public var duration: Double? {
        get { storage.fields.duration }
        set { mutate { $0.duration = newValue } }
    }
    public var samplerate: Int? {
        get { storage.fields.samplerate }
        set { mutate { $0.samplerate = newValue } }
    }
    public var bitdepth: Int? {
        get { storage.fields.bitdepth }
        set { mutate { $0.bitdepth = newValue } }
    }
    public var channels: Int? {
        get { storage.fields.channels }
        set { mutate { $0.channels = newValue } }
    }
    public var bitrate: Int? {
        get { storage.fields.bitrate }
        set { mutate { $0.bitrate = newValue } }
    }
    public var format: String? {
        get { storage.fields.format }
        set { mutate { $0.format = newValue } }
    }
    /// For a song that is one track of its file (a CUE image's track, a chapter), the track's
    /// first sample in the file; nil for a song that is its whole file. With the file's path
    /// (then fingerprint) it is the song's identity: a track keeps its id when the image and
    /// its sheet move together (DESIGN §1).
    public var start: Int? {
        get { storage.fields.start }
        set { mutate { $0.start = newValue } }
    }
    /// The sample after the track's last; nil plays to the file's end.
    public var end: Int? {
        get { storage.fields.end }
        set { mutate { $0.end = newValue } }
    }
    /// The CUE sheet a track comes from, when it comes from a `.cue` file beside its image
    /// (the path MPD's URIs for the track go by: `Album/image.cue/track0002`).
    public var sheet: String? {
        get { storage.fields.sheet }
        set { mutate { $0.sheet = newValue } }
    }
    /// Whether the song is one track of a file that holds several.
    public var isTrackOfFile: Bool { start != nil }
    // Library-only facts.
    /// Tags in the Boomic sense (`#jazz`, `#instruments:piano`), stored without the `#`, sorted, unique.
    public var tags: [String] {
        get { storage.fields.tags }
        set { mutate { $0.tags = newValue } }
    }
    public var rating: Int? {
        get { storage.fields.rating }
        set { mutate { $0.rating = newValue } }
    }
    public var playcount: Int {
        get { storage.fields.playcount }
        set { mutate { $0.playcount = newValue } }
    }
    public var favorite: Bool {
        get { storage.fields.favorite }
        set { mutate { $0.favorite = newValue } }
    }
    /// Content hash of the front cover in the library's art store.
    public var art: String? {
        get { storage.fields.art }
        set { mutate { $0.art = newValue } }
    }

    /// For each tag field the library changed since the file was last read or written, the
    /// file's value then, as `field=JSON` entries, sorted (see `fileValueMap`).
    ///
    /// This is what lets a rescan tell "the file changed this field" (take the file's value)
    /// from "the library changed it and the file did not" (keep the edit), and what `write`
    /// has left to write.
    public var fileValues: [String] {
        get { storage.fields.fileValues }
        set { mutate { $0.fileValues = newValue } }
    }

    /// The user's own fields (beets' flexible attributes: `modify mood=happy`), as `name=value`
    /// entries sorted by name, one per name (see `userFieldMap`).
    ///
    /// They live in the library only: a rescan keeps them and write-back never puts them in a file.
    public var userFields: [String] {
        get { storage.fields.userFields ?? [] }
        set { mutate { $0.userFields = newValue.isEmpty ? nil : newValue } }
    }

    /// What MPD clients stick on the song under names of their own (`sticker set song URI
    /// playCount 3`, as myMPD does), as `name=value` entries sorted by name, one per name, names
    /// spelled as the client spells them. Library-only, like the user's fields, and kept apart
    /// from them: a client's names are its own, and may be any text.
    public var stickers: [String] {
        get { storage.fields.stickers ?? [] }
        set { mutate { $0.stickers = newValue.isEmpty ? nil : newValue } }
    }

    /// The names (`SongField` raw values) of the fields whose value Boomic guessed from where
    /// the file lies (a `CD2` folder, a file name, the folders above), sorted: the guess
    /// transaction sets them, an edit of the field or a file that comes to hold it takes the
    /// mark away (`Song.edit`, `merge(fileFacts:)`). Library-only: a rescan keeps it.
    public var guessed: [String] {
        get { storage.fields.guessed ?? [] }
        set { mutate { $0.guessed = newValue.isEmpty ? nil : newValue } }
    }

    /// The stickers as (name, value), in their stored order (by name's bytes).
    public var stickerPairs: [(name: String, value: String)] {
        stickers.compactMap { e in e.firstIndex(of: "=").map { (String(e[..<$0]), String(e[e.index(after: $0)...])) } }
    }

    /// One sticker's value, nil when the song has none.
    public func sticker(_ name: String) -> String? {
        stickerPairs.first { $0.name == name }?.value
    }

    /// Stickers as stored: one `name=value` entry per name (the last wins) with a non-empty
    /// name without `=`, sorted by name's bytes, so equal sets compare equal. A value may be
    /// empty, as MPD keeps it.
    public static func normalizedStickers(_ entries: [String]) -> [String] {
        var byName: [String: Substring] = [:]
        for e in entries {
            guard let eq = e.firstIndex(of: "="), eq != e.startIndex else { continue }
            byName[String(e[..<eq])] = e[e.index(after: eq)...]
        }
        return byName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { $0 + "=" + byName[$0]! }
    }

    // Plays: what the player records, one `play` transaction per finished or skipped song.
    /// Times the song was moved on from before it counted as a play (`PlayCounting`).
    public var skipcount: Int {
        get { storage.fields.skipcount }
        set { mutate { $0.skipcount = newValue } }
    }
    /// When the song last counted as a play, seconds since 1970 (passed in; Core has no clock).
    public var lastplayed: Double? {
        get { storage.fields.lastplayed }
        set { mutate { $0.lastplayed = newValue } }
    }
    /// Where to resume the song (an audiobook), in seconds of the song's own time; nil when
    /// it starts at its start.
    public var bookmark: Double? {
        get { storage.fields.bookmark }
        set { mutate { $0.bookmark = newValue } }
    }
    /// The playback speed the bookmark was left at (0.5–2.0); nil is 1.0 (normal speed), and
    /// it is only kept with a bookmark.
    public var bookmarkSpeed: Double? {
        get { storage.fields.bookmarkSpeed }
        set { mutate { $0.bookmarkSpeed = newValue } }
    }

    /// The names of the stored properties, for tests that check every one is handled: the
    /// rare fields' box counts as the fields in it.
    public static var storedPropertyNames: [String] {
        // The optional numbers are stored as `_NAME` and a bit of `present`.
        let fields = Mirror(reflecting: Fields(path: "")).children.compactMap(\.label)
            .filter { $0 != "rare" && $0 != "present" }.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
        return ["id"] + fields + Mirror(reflecting: RareFields()).children.compactMap(\.label)
    }

    /// The path is compared by bytes: a file renamed from NFC to NFD is a different song value
    /// (String `==` alone would call the two names equal, and a diff would lose the rename).
    public static func == (a: Song, b: Song) -> Bool {
        a.id == b.id && (a.storage === b.storage
            || (a.storage.fields == b.storage.fields && a.path.sameBytes(as: b.path)))
    }

    public func hash(into h: inout Hasher) {
        h.combine(id)
        h.combine(storage.fields)
    }

    private enum IDKey: String, CodingKey { case id }

    // The JSON form is flat ({"id": …, "path": …, "title": …}), as if the fields were stored inline.
    public init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: IDKey.self).decode(SongID.self, forKey: .id)
        storage = Storage(Fields(path: ""))
        try decodeFields(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeFields(to: encoder)
        var c = encoder.container(keyedBy: IDKey.self)
        try c.encode(id, forKey: .id)
    }

    /// The artist as people read it: the credit when the file has one, else the artists joined
    /// the way taggers join them.
    public var artist: String? { artistCredit ?? joinedArtists }

    /// The artists joined the way taggers join them (`A; B`), as a credit would say it.
    public var joinedArtists: String? { artists.isEmpty ? nil : artists.joined(separator: "; ") }

    /// The artist an album is filed under: the album artist, else the first track artist.
    public var effectiveAlbumArtist: String? {
        if let a = albumartist, !a.isEmpty { return a }
        if compilation { return "Various Artists" }
        return artists.first
    }

    /// The album artist as it sorts: its sort name, else (a song without an album artist being
    /// its artist's) the artist's sort name, else `effectiveAlbumArtist`.
    public var albumArtistSortName: String? {
        if let s = albumartistSort, !s.isEmpty { return s }
        if albumartist?.isEmpty ?? true, !compilation, let s = artistSort, !s.isEmpty { return s }
        return effectiveAlbumArtist
    }
}
