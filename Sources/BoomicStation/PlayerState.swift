import BoomicCore
import BoomicPlayback
import Foundation

/// What `boomic play --resume` continues from: the queue and the place in the song being heard,
/// kept outside the log (a position every few seconds is no fact worth a transaction) in
/// `player/state.json` in the library folder.
///
/// Saved on quit, on SIGINT/SIGTERM and every few seconds while playing, so that a crash or a
/// power cut loses at most that much of the position.
public struct PlayerState: Codable, Sendable, Equatable {
    /// The saved form's version, checked on read.
    public static let currentFormat = 1

    public var format = PlayerState.currentFormat
    public var queue: PlayQueue
    /// The entry being heard and the frame reached in it.
    public var entry: PlayQueue.EntryID?
    public var frame: Int
    /// The play under way on `entry`: resumed, it goes on as the same play, which the library
    /// then counts once even when a crash came after its record was committed.
    public var play: PlayKey?
    /// The song's file as the library knew it then: a song changed since starts from its start.
    public var song: SongID?
    public var size: Int?
    public var mtime: Int?
    public var savedAt: Date
    /// Plays not committed yet (the library was busy or read-only): committed at the next start.
    public var pending: [PlayRecord] = []
    /// The volume (0–100) a front set, kept across a restart as MPD keeps its software volume;
    /// nil where the front leaves the volume to its configuration.
    public var volume: Int?

    public init(queue: PlayQueue, entry: PlayQueue.EntryID?, frame: Int, play: PlayKey? = nil, song: Song?,
                pending: [PlayRecord] = [], volume: Int? = nil, savedAt: Date = Date()) {
        self.play = play
        self.pending = pending
        self.volume = volume
        self.queue = queue
        self.entry = entry
        self.frame = frame
        self.song = song?.id
        size = song?.size
        mtime = song?.mtime
        self.savedAt = savedAt
    }

    enum CodingKeys: String, CodingKey {
        case format, queue, entry, frame, play, song, size, mtime, savedAt, pending, volume
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(Int.self, forKey: .format)
        queue = try c.decode(PlayQueue.self, forKey: .queue)
        entry = try c.decodeIfPresent(PlayQueue.EntryID.self, forKey: .entry)
        frame = try c.decode(Int.self, forKey: .frame)
        play = try c.decodeIfPresent(PlayKey.self, forKey: .play)
        song = try c.decodeIfPresent(SongID.self, forKey: .song)
        size = try c.decodeIfPresent(Int.self, forKey: .size)
        mtime = try c.decodeIfPresent(Int.self, forKey: .mtime)
        savedAt = try c.decode(Date.self, forKey: .savedAt)
        pending = try c.decodeIfPresent([PlayRecord].self, forKey: .pending) ?? []
        volume = try c.decodeIfPresent(Int.self, forKey: .volume)
    }

    /// The queue played to its end: no song is current, some were played, and it is stopped
    /// (a queue that repeats never gets here). A resume has nothing to go on with.
    public var playedToItsEnd: Bool {
        entry == nil && !queue.history.isEmpty && queue.state == .stopped
    }

    /// Where to resume in `basis`: the saved frame, or the song's start when the song is gone
    /// from the library or its file changed since (a frame of another recording means nothing).
    public func resumePoint(in basis: DataBasis) -> ResumePoint? {
        guard let entry, queue.entry(entry) != nil else { return nil }
        guard let id = song, let now = basis[id], now.size == size, now.mtime == mtime else {
            return ResumePoint(entry: entry, frame: 0, play: play)
        }
        return ResumePoint(entry: entry, frame: frame, play: play)
    }
}
