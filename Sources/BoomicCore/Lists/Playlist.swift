/// An ordered list of songs chosen by hand: duplicates allowed, order kept.
///
/// Entries are song ids, not paths, so a file that moves (and keeps its id on rescan) stays in
/// its playlists, and an entry whose song was removed from the library comes back when the
/// removal is undone. Paths only appear at the edges, in M3U8 import and export.
public struct Playlist: Hashable, Sendable, Codable {
    public var name: String
    public var songs: [SongID]

    public init(name: String, songs: [SongID] = []) {
        self.name = name
        self.songs = songs
    }
}
