import Foundation

/// Which album or artist a star or a rating belongs to, by an identity that outlives renames
/// where the files give one.
///
/// Albums and artists are not stored entities (they are indexes over songs, `AlbumKey`), so what
/// the household says about one of them (starred, rated through an OpenSubsonic client) is kept
/// under this key, an `Annotation`:
/// - with a MusicBrainz id (the release's `mb_albumid`, the artist's `mb_artistid` or
///   `mb_albumartistid`), the key is that id: any rename of the album or artist keeps it;
/// - without one, the key is the folded names (album artist and title; the artist's name), and a
///   `modify` that renames the whole album or artist carries the annotation to the new key in the
///   same transaction (`AnnotationGeneration.carried`), so `undo` takes both back together.
///
/// `album(of:)` and the two constructors are the one place that maps library values to keys:
/// a catalog that gives albums and artists opaque ids maps them here.
public struct AnnotationKey: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Hashable, Comparable, Sendable, Codable {
        case album, artist
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    /// The MusicBrainz id, lower case; nil when the key is by name.
    public var musicBrainzID: String?
    /// Folded names when there is no MusicBrainz id: `[album artist, title]` for an album,
    /// `[name]` for an artist; empty otherwise.
    public var names: [String]

    private init(kind: Kind, musicBrainzID: String?, names: [String]) {
        self.kind = kind
        self.musicBrainzID = musicBrainzID
        self.names = names
    }

    /// The key of an album: its MusicBrainz release id when it has one, else its album artist
    /// and title folded as `AlbumKey` folds them.
    public static func album(musicBrainzID: String?, albumArtist: String?, title: String) -> AnnotationKey {
        if let mb = normalizedID(musicBrainzID) { return AnnotationKey(kind: .album, musicBrainzID: mb, names: []) }
        return AnnotationKey(kind: .album, musicBrainzID: nil, names: [Fold.key(albumArtist ?? ""), Fold.key(title)])
    }

    /// The key of an artist: its MusicBrainz artist id when known, else its folded name.
    public static func artist(musicBrainzID: String?, name: String) -> AnnotationKey {
        if let mb = normalizedID(musicBrainzID) { return AnnotationKey(kind: .artist, musicBrainzID: mb, names: []) }
        return AnnotationKey(kind: .artist, musicBrainzID: nil, names: [Fold.key(name)])
    }

    /// The key of the album a song is on; nil for a song with no album.
    public static func album(of song: Song) -> AnnotationKey? {
        guard let title = song.album, !title.isEmpty else { return nil }
        return album(musicBrainzID: song.mbAlbumID, albumArtist: song.effectiveAlbumArtist, title: title)
    }

    /// The keys of the artists a song names (its artists and its album artist), by name: an
    /// artist's MusicBrainz id cannot be told apart from the song's other artists' ids.
    static func artistNameKeys(of song: Song) -> Set<AnnotationKey> {
        Set(DataBasis.artistKeys(song).map { AnnotationKey(kind: .artist, musicBrainzID: nil, names: [$0]) })
    }

    /// Whether the key follows the names (and so moves with a rename) rather than an id.
    public var isByName: Bool { musicBrainzID == nil }

    /// One id, lower case, or nil: several ids joined (`a; b`) or an empty tag name no one thing.
    private static func normalizedID(_ id: String?) -> String? {
        guard let t = id?.trimmingCharacters(in: .whitespaces).lowercased(), !t.isEmpty,
              !t.contains(";"), !t.contains("/") else { return nil }
        return t
    }

    public static func < (a: AnnotationKey, b: AnnotationKey) -> Bool {
        if a.kind != b.kind { return a.kind < b.kind }
        if a.musicBrainzID != b.musicBrainzID { return (a.musicBrainzID ?? "") < (b.musicBrainzID ?? "") }
        return a.names.lexicographicallyPrecedes(b.names)
    }

    /// `album mb:…`, `album "the beatles" – "abbey road"`, `artist "nico"`: for `show`.
    public var description: String {
        if let mb = musicBrainzID { return "\(kind.rawValue) mb:\(mb)" }
        return kind.rawValue + " " + names.map { "\"\($0)\"" }.joined(separator: " – ")
    }
}
