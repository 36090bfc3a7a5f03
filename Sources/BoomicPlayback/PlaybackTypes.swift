import BoomicAudio
import BoomicCore

/// What the engine needs to know of a song to play it: the front resolves queue entries against
/// the library snapshot it reads, so the engine itself never touches the library.
public struct PlayableSong: Sendable, Equatable {
    public var id: SongID
    public var path: String
    /// Where the song starts when it starts from its beginning, in seconds: an audiobook's
    /// bookmark. 0 for music.
    public var startAt: Double
    /// Its ReplayGain values, for the gain the engine applies when ReplayGain is on.
    public var replayGain: ReplayGainTags
    /// The speed it plays at instead of the session's: an audiobook's `bookmark_speed` when it
    /// starts from its bookmark and `--speed` was not given. Nil: the session's speed.
    public var speed: Double?
    /// How long the library knows the song to last, in seconds: a file that ends well before
    /// (truncated or damaged since it was read) has not been heard to its end.
    public var duration: Double?
    /// The part of the file that is the song (a CUE sheet's track of an image); nil: the whole
    /// file. A queue entry's own range (`rangeid`) takes its place.
    public var range: PlayRange?

    public init(id: SongID, path: String, startAt: Double = 0, replayGain: ReplayGainTags = ReplayGainTags(),
                speed: Double? = nil, duration: Double? = nil, range: PlayRange? = nil) {
        self.id = id
        self.path = path
        self.startAt = startAt
        self.replayGain = replayGain
        self.speed = speed
        self.duration = duration
        self.range = range
    }
}

/// Where an engine starts when it resumes: the entry, the frame of its file reached, and the
/// play under way there, which goes on as the same play (counted once, however often a crash
/// and a resume split it).
public struct ResumePoint: Sendable, Equatable {
    public var entry: PlayQueue.EntryID
    public var frame: Int
    /// Nil (a state file saved by an older Boomic): the resumed entry starts a play of its own.
    public var play: PlayKey?

    public init(entry: PlayQueue.EntryID, frame: Int, play: PlayKey? = nil) {
        self.entry = entry
        self.frame = frame
        self.play = play
    }
}

/// What a front asks of the engine. Queue commands go through unchanged (the engine carries out
/// whatever the queue value decides); the rest need the engine's own knowledge of the position.
public enum PlaybackCommand: Sendable {
    case queue(QueueCommand)
    /// `previous`, told how far into the song playback is (restart after 3 s).
    case previous
    /// To this many seconds into the current song.
    case seek(to: Double)
    /// By this many seconds, back when negative (spoken word's 15/30 s keys; ←/→).
    case seekBy(Double)
    /// The sleep timer: after this many seconds of playing (audio time, so a paused player
    /// does not count down and an unpaced output counts what it rendered), fade out over
    /// `SleepTimer.fade` and stop; nil cancels it.
    case sleep(after: Double?)
    /// Volume, EQ and ReplayGain, heard within a slot or two (a gain glides over 10 ms).
    case sound(SoundSettings)
}

/// What the engine does to the samples besides converting them. At their defaults (no EQ,
/// ReplayGain off, volume 100) it does nothing, and playback is bit-exact.
public struct SoundSettings: Sendable, Equatable {
    public var eq: EQSpec?
    /// How the EQ was named (`rock`, a profile, a file), for the status line.
    public var eqName: String
    public var replayGain: ReplayGainMode
    /// dB added to ReplayGain's gain, when it is on.
    public var preamp: Double
    /// dB for songs without ReplayGain values, when it is on.
    public var missing: Double
    /// 0–100: 100 is unity, lower follows `Volume.gain`'s curve.
    public var volume: Int
    /// Tempo as a factor (0.5–2.0), pitch unchanged; exactly 1 leaves SoundTouch out entirely.
    /// Positions, seeks and seconds heard stay in the song's own time whatever the speed.
    public var speed: Double

    public init(eq: EQSpec? = nil, eqName: String = "off", replayGain: ReplayGainMode = .off, preamp: Double = 0,
                missing: Double = 0, volume: Int = 100, speed: Double = 1) {
        self.eq = eq
        self.eqName = eqName
        self.replayGain = replayGain
        self.preamp = preamp
        self.missing = missing
        self.volume = volume
        self.speed = speed
    }

    /// Whether anything changes the samples: then the output is offered float (a `wav:` file
    /// is written as 32-bit float), and the samples pass through the processor.
    public var changesSamples: Bool {
        replayGain != .off || volume != 100 || speed != 1 || !(eq?.isFlat ?? true)
    }
}

/// The sleep timer's fade.
public enum SleepTimer {
    /// Seconds over which playback fades out before the timer stops it.
    public static let fade: Double = 10
}

/// Why a song stopped being heard: what the play-counting rule needs.
public enum SongEndReason: String, Sendable, Equatable {
    /// It played to its end.
    case finished
    /// The queue moved on before its end (next, previous, play another, remove).
    case skipped
    /// Playback stopped.
    case stopped
    /// The player quit, or the sleep timer stopped it: only the position is worth keeping (a
    /// bookmark).
    case quit
    /// It could not be decoded at all; skipped without counting.
    case failed
}

/// One song's time on the speakers, reported when it ends.
public struct SongEnd: Sendable, Equatable {
    public var entry: PlayQueue.EntryID
    public var song: SongID
    /// Which play ended: the same for every part of it (a seek, a quit and a resume).
    public var key: PlayKey
    /// Seconds actually heard (seeks neither add nor take away).
    public var heard: Double
    /// Where in the song playback was when it ended, in seconds of the song's own time (from
    /// its range's start, when it plays one: a CUE track's or a chapter's bookmark is the part's).
    public var position: Double
    /// The song's length (of its range, when it plays one), when known.
    public var duration: Double?
    public var reason: SongEndReason
    /// The speed it was heard at last, for an audiobook's bookmark.
    public var speed: Double = 1
    /// `finished`, but the file ended more than a second before the song's known length (a
    /// file truncated or damaged since the library read it): it counts by what was heard, as a
    /// song moved on from does, not as one heard to its end.
    public var endedEarly = false
}

public enum PlaybackEvent: Sendable, Equatable {
    /// The first samples of an entry reached the output: the play `key`, which its `ended`
    /// carries too (a seek, a pause and a resume keep it; `repeat` one's next play is another).
    case started(entry: PlayQueue.EntryID, song: SongID, key: PlayKey)
    case ended(SongEnd)
    /// A song could not be opened or decoded cleanly; playback goes on. One line.
    case warning(String)
    /// The queue played to its end (or stopped) and the output played out.
    case idle
    /// The output failed (a device that does not exist, a full disk): playback has stopped.
    case failed(AudioError)
}

/// What the engine is doing, as a front shows it.
public struct PlaybackStatus: Sendable, Equatable {
    public var queue: PlayQueue
    /// The entry being heard (or paused), and where in it, in seconds and in frames.
    public var entry: PlayQueue.EntryID?
    /// The play under way on that entry, for the state file: a resume goes on with it.
    public var play: PlayKey?
    public var position: Double = 0
    public var frame: Int = 0
    public var duration: Double?
    /// The song's own format and what the output takes.
    public var sourceFormat: PCMFormat?
    public var outputFormat: PCMFormat?
    public var sound = SoundSettings()
    /// The gain ReplayGain gives the song being decoded, in dB (0 when off).
    public var replayGainDecibels: Double = 0
    /// The song that could not be played where playback stopped, until a song plays: what
    /// MPD's `status` shows as `error:`.
    public var failure: PlaybackFailure?
}

/// A song the engine could not open or decode.
public struct PlaybackFailure: Sendable, Equatable {
    public var entry: PlayQueue.EntryID
    public var song: SongID
    /// Counts the engine's failures, so that a front can tell one it was asked to forget
    /// (MPD's `clearerror`) from the next.
    public var serial: Int
}
