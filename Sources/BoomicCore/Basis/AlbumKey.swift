import Foundation

/// Which album a song belongs to: its album artist and album title, compared case-folded.
///
/// Albums are not stored entities; they are an index over songs, so a song whose album or album
/// artist changes moves to the right album by itself and an album left empty disappears.
public struct AlbumKey: Hashable, Comparable, Sendable, Codable {
    public var artist: String
    public var title: String

    public init(artist: String, title: String) {
        self.artist = artist
        self.title = title
    }

    public init?(_ song: Song) {
        guard let album = song.album, !album.isEmpty else { return nil }
        self.init(artist: Fold.key(song.effectiveAlbumArtist ?? ""), title: Fold.key(album))
    }

    public static func < (a: AlbumKey, b: AlbumKey) -> Bool {
        (a.artist, a.title) < (b.artist, b.title)
    }
}

/// Case and accent folding for keys and matching, so `Björk`, `bjork` and `BJÖRK` meet.
public enum Fold {
    public static func key(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s.lowercased() }
        return s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
