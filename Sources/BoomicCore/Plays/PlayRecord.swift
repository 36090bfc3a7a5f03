/// What the player hands the library when a song stops being the current one: which song, how it
/// ended for the statistics, when, and where to resume it.
///
/// A pure value, Codable so that the engine can keep the records it has not committed yet in its
/// state file (a crash or a lock held by another process must not lose a play). The library turns
/// one record into one `play` transaction (`PlayGeneration`), computed on the latest basis.
public struct PlayRecord: Hashable, Sendable, Codable {
    /// How the song counts (`PlayCounting.outcome`).
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// It ended, or half of it or 4 minutes were heard: playcount + 1, `lastplayed` = `time`.
        case played
        /// Moved on from earlier: skipcount + 1.
        case skipped
        /// The player quit: only the bookmark is recorded.
        case bookmarkOnly = "bookmark"
    }

    public var song: SongID
    public var outcome: Outcome
    /// When the play counted (seconds since 1970): what `lastplayed` becomes for a play.
    public var time: Double
    /// The bookmark the song holds after this record: nil clears it (an audiobook heard to its
    /// end starts at its start next time). The engine sets one only for songs that remember their
    /// place (`Song.remembersPosition`); for others it passes nil, which changes nothing there.
    public var bookmark: Bookmark?
    /// Which play this is (its queue entry and start), so that it counts once: set for a play
    /// or a skip by the player; nil for a bookmark alone, which may be recorded again as the
    /// same play goes on (a quit, then a resume heard to the end).
    public var key: PlayKey?

    public init(song: SongID, outcome: Outcome, time: Double, bookmark: Bookmark? = nil, key: PlayKey? = nil) {
        self.song = song
        self.outcome = outcome
        self.time = time
        self.bookmark = bookmark
        self.key = key
    }
}

/// Where to resume a song, and at what speed it was being heard.
///
/// Kept in two song fields, `bookmark` (seconds into the song, in the song's own time, so a
/// speed change does not move it) and `bookmark_speed` (nil for 1.0), so that queries and
/// `ls -f` read the position as a plain number.
public struct Bookmark: Hashable, Sendable, Codable {
    public var position: Double
    public var speed: Double

    public init(position: Double, speed: Double = 1) {
        self.position = position
        self.speed = speed
    }
}

extension Song {
    /// The song's bookmark, from its two fields.
    public var bookmarkValue: Bookmark? {
        bookmark.map { Bookmark(position: $0, speed: bookmarkSpeed ?? 1) }
    }

    /// Whether the player keeps this song's place (issue 10, item 7): longer than 20 minutes,
    /// or tagged `#audiobook`.
    public var remembersPosition: Bool {
        (duration ?? 0) > 20 * 60 || tags.contains { $0 == "audiobook" || $0.hasPrefix("audiobook:") }
    }
}
