import Foundation

/// The opaque ids the catalog gives songs, albums and artists (the ids OpenSubsonic clients
/// store and send back), made in this one place so that every front and every entity built on
/// albums and artists (their stars) agree on them.
///
/// An id is a kind prefix and a value: `so-` and the song's UUID, `al-` or `ar-` and 16
/// hexadecimal digits of an XXH64 hash. None holds a path or anything a path can be read from,
/// and `parse` accepts only these shapes, so a client's `../../etc/passwd` is no id at all.
///
/// What an id survives (`Documentation/catalog.md`):
/// - a song's is its `SongID`: it survives every edit, a move or rename of the file, a rescan;
/// - an album's is the hash of its MusicBrainz release id when its songs carry one (the most
///   common among them, if that id names no other album of the library), so it survives
///   renaming the album or its artist; else the hash of its `AlbumKey` (album artist and title,
///   case- and accent-folded), which survives a change of case or accents, edits of any other
///   field, songs added and removed, and files moved, but not a new title or album artist;
/// - an artist's is likewise the hash of their MusicBrainz artist id when their albums carry
///   one, else of their folded name.
public enum CatalogID {
    /// What an id names, read back from its text.
    public enum Parsed: Hashable, Sendable {
        case song(SongID)
        /// The hash part of an album id.
        case album(UInt64)
        /// The hash part of an artist id.
        case artist(UInt64)
    }

    static let songPrefix = "so-"
    static let albumPrefix = "al-"
    static let artistPrefix = "ar-"

    /// A song's id.
    public static func song(_ id: SongID) -> String { songPrefix + id.description }

    /// An album's id from its key and, when it has one, its MusicBrainz release id.
    ///
    /// `salt` is 0 but for the rare album whose hash another album of the same library already
    /// has (`Catalog` counts up until it finds a free one).
    public static func album(key: AlbumKey, musicBrainzID: String?, salt: UInt64 = 0) -> String {
        albumPrefix + hexString(albumHash(key: key, musicBrainzID: musicBrainzID, salt: salt))
    }

    /// An artist's id from their folded name (`AlbumKey.artist`) and, when known, their
    /// MusicBrainz artist id.
    public static func artist(key: String, musicBrainzID: String?, salt: UInt64 = 0) -> String {
        artistPrefix + hexString(artistHash(key: key, musicBrainzID: musicBrainzID, salt: salt))
    }

    static func albumHash(key: AlbumKey, musicBrainzID: String?, salt: UInt64) -> UInt64 {
        if let mb = musicBrainzID { return hash(["album-mb", mb.lowercased()], salt) }
        return hash(["album", key.artist, key.title], salt)
    }

    static func artistHash(key: String, musicBrainzID: String?, salt: UInt64) -> UInt64 {
        if let mb = musicBrainzID { return hash(["artist-mb", mb.lowercased()], salt) }
        return hash(["artist", key], salt)
    }

    /// The hash of the parts joined by NUL, seeded by `salt`.
    private static func hash(_ parts: [String], _ salt: UInt64) -> UInt64 {
        var bytes: [UInt8] = []
        for (i, p) in parts.enumerated() {
            if i > 0 { bytes.append(0) }
            bytes += p.utf8
        }
        return bytes.withUnsafeBytes { XXH64.hash($0, seed: salt) }
    }

    /// The entity an id names, or nil when the text is no id of this scheme (wrong prefix,
    /// wrong length, a character out of place): hostile input is answered with nil, never a trap.
    public static func parse(_ text: String) -> Parsed? {
        let u = text.utf8
        guard u.count <= 64 else { return nil }
        if text.hasPrefix(songPrefix) {
            let rest = text.dropFirst(songPrefix.count)
            guard rest.utf8.count == 36, let uuid = UUID(uuidString: String(rest)) else { return nil }
            return .song(SongID(uuid))
        }
        if text.hasPrefix(albumPrefix) { return hexValue(text.dropFirst(albumPrefix.count)).map { .album($0) } }
        if text.hasPrefix(artistPrefix) { return hexValue(text.dropFirst(artistPrefix.count)).map { .artist($0) } }
        return nil
    }

    /// Exactly 16 lowercase hexadecimal digits, as `hexString` writes a `UInt64`.
    private static func hexValue(_ s: Substring) -> UInt64? {
        guard s.utf8.count == 16,
              s.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(s, radix: 16)
    }
}
