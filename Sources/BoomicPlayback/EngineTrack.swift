import BoomicAudio
import BoomicCore

/// One song being decoded, from where it started or was sought to: one `segment` of the ring.
struct EngineTrack {
    let segment: Int
    let entry: PlayQueue.EntryID
    /// The queue's `starts` when this play began: tells a restart of the same entry apart.
    let starts: Int
    /// The play this segment is part of: kept across seeks, and across a resume.
    let key: PlayKey
    let song: SongID
    var decoder: (any AudioDecoder)?
    /// Nil when the song could not be opened: it then passes as an empty track.
    let format: PCMFormat?
    /// The file's length as its decoder reads it.
    let totalFrames: Int?
    /// Where the part played begins and ends in the file (a `rangeid`, a CUE track): 0 and
    /// nil for a whole file. Decoding stops at `lastFrame`; positions count from `firstFrame`.
    var firstFrame = 0
    var lastFrame: Int?
    /// Where the song is known to end (its range's end, else the longer of the decoder's
    /// length and the library's): ending well before it, the file was cut short.
    var expectedEnd: Int?
    /// Decoding ended more than a second before `expectedEnd`.
    var endedEarly = false
    /// The song's frame where this segment starts.
    let startFrame: Int
    var decodedFrames = 0
    var warningsSeen = 0
    var decodeEnded = false
    /// The output was made ready for this track's format.
    var prepared = false
    /// `started` was reported.
    var announced = false
    /// Frames heard in earlier segments of this same play (before a seek).
    var heardBefore = 0

    /// Opened, but the output cannot take it: passes as an empty track like a failed one.
    var unplayable = false
    /// From the song's format to the output's, when they differ.
    var converter: FormatConverter?
    /// With sound processing on: from the song's format to float at the output's rate and
    /// channels, and from there to the output's integers (dithered).
    var toFloat: FormatConverter?
    var fromFloat: FormatConverter?
    var replayGain = ReplayGainTags()
    /// Ended early by the sleep timer.
    var cut = false
    /// The output's rate, for turning frames heard into the song's frames.
    var outputRate: Double?
    /// The speed this segment is played at, and the frames of output the stretcher still held
    /// from the song before when it began (heard first, under this segment).
    var speed = 1.0
    var carried = 0

    var failed: Bool { format == nil || unplayable }
    var rate: Double { Double(format?.sampleRate ?? 44_100) }
    /// The frame after the last one played: the range's end, else the file's.
    var endFrame: Int? { lastFrame ?? totalFrames }
    /// The length played, in seconds (of the range, when there is one).
    var duration: Double? { endFrame.map { Double(max(0, $0 - firstFrame)) / rate } }
    /// The length the song is known to have, for counting its play.
    var expectedDuration: Double? { (expectedEnd ?? endFrame).map { Double(max(0, $0 - firstFrame)) / rate } }

    /// What was heard of it, as arithmetic.
    var time: HeardTime {
        HeardTime(rate: rate, outputRate: outputRate, speed: speed, carried: carried, firstFrame: firstFrame,
                  endFrame: endFrame, startFrame: startFrame, decodedFrames: decodedFrames, heardBefore: heardBefore)
    }
}
