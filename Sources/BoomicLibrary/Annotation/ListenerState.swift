import BoomicCore
import Foundation

/// What each API user keeps for themselves: bookmarks (a position in a song, with a comment)
/// and the play queue a client saved to resume on another device (OpenSubsonic's
/// `createBookmark`, `getBookmarks`, `deleteBookmark`, `savePlayQueue`, `getPlayQueue`).
///
/// Per user and not the library's: kept in `ListenerStateStore`'s file beside the library, never
/// in the log (DESIGN §1: "What is not the library's stays out of the log"), so `rollback` and
/// `undo` leave it and `export` does not carry it. Positions are milliseconds, as the API gives
/// them; times are seconds since 1970.
public struct ListenerState: Hashable, Sendable, Codable {
    public var bookmarks: [SongID: Bookmark] = [:]
    public var playQueue: PlayQueue?

    public init() {}

    public struct Bookmark: Hashable, Sendable, Codable {
        public var song: SongID
        public var position: Int64
        public var comment: String?
        public var created: Double
        public var changed: Double

        public init(song: SongID, position: Int64, comment: String?, created: Double, changed: Double) {
            self.song = song
            self.position = position
            self.comment = comment
            self.created = created
            self.changed = changed
        }
    }

    public struct PlayQueue: Hashable, Sendable, Codable {
        public var songs: [SongID]
        /// The song playing when it was saved (one of `songs`), if any.
        public var current: SongID?
        /// Where in `current`, in milliseconds.
        public var position: Int64
        public var changed: Double
        /// The client that saved it (`c=`).
        public var changedBy: String

        public init(songs: [SongID], current: SongID?, position: Int64, changed: Double, changedBy: String) {
            self.songs = songs
            self.current = current
            self.position = position
            self.changed = changed
            self.changedBy = changedBy
        }
    }

    public var isEmpty: Bool { bookmarks.isEmpty && playQueue == nil }

    // Codable: bookmarks as a list sorted by song (song ids are not JSON object keys).
    private enum Key: String, CodingKey { case bookmarks, playQueue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let list = try c.decodeIfPresent([Bookmark].self, forKey: .bookmarks) ?? []
        bookmarks = Dictionary(list.map { ($0.song, $0) }, uniquingKeysWith: { $1 })
        playQueue = try c.decodeIfPresent(PlayQueue.self, forKey: .playQueue)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(bookmarks.values.sorted { $0.song < $1.song }, forKey: .bookmarks)
        try c.encodeIfPresent(playQueue, forKey: .playQueue)
    }
}
