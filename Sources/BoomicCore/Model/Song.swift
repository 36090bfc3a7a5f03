/// One audio file in the library, with what its tags say and what the user changed.
///
/// A value: the basis holds songs in persistent collections, so a changed song is a new value and
/// earlier snapshots keep the old one. Every stored property has a `SongField`, which is how
/// assertions patch it field by field.
public struct Song: Identifiable, Hashable, Sendable, Codable {
    public var id: SongID

    // Where it is and what the file looked like when last scanned (for rescans and write-back).
    public var path: String
    public var size: Int = 0
    /// Modification time in whole nanoseconds since 1970, as stat(2) gives it.
    public var mtime: Int = 0
    /// FLAC's STREAMINFO MD5, else a hash of the audio bytes: how a moved file is recognised.
    public var fingerprint: String?
    /// The file was not found at the last rescan. Kept, not forgotten, until the user removes it.
    public var missing: Bool = false
    /// When it was first imported, seconds since 1970 (passed in by the caller; Core has no clock).
    public var added: Double = 0

    // Tags.
    public var title: String?
    /// Every artist the file names; `artist` (the display string) is derived from them.
    public var artists: [String] = []
    public var album: String?
    public var albumartist: String?
    public var track: Int?
    public var tracktotal: Int?
    public var disc: Int?
    public var disctotal: Int?
    public var year: Int?
    /// The full date as tagged (`1969-09-26`), when it says more than the year.
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

    // Audio properties.
    public var duration: Double?
    public var samplerate: Int?
    public var bitdepth: Int?
    public var channels: Int?
    public var bitrate: Int?
    public var format: String?

    // Library-only facts.
    /// Tags in the Boomic sense (`#jazz`, `#instruments:piano`), stored without the `#`, sorted, unique.
    public var tags: [String] = []
    public var rating: Int?
    public var playcount: Int = 0
    public var favorite: Bool = false
    /// Content hash of the front cover in the library's art store.
    public var art: String?

    public init(id: SongID, path: String) {
        self.id = id
        self.path = path
    }

    /// The artist as people read it: several artists joined the way taggers join them.
    public var artist: String? { artists.isEmpty ? nil : artists.joined(separator: "; ") }

    /// The artist an album is filed under: the album artist, else the first track artist.
    public var effectiveAlbumArtist: String? {
        if let a = albumartist, !a.isEmpty { return a }
        if compilation { return "Various Artists" }
        return artists.first
    }
}
