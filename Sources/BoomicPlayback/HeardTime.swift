/// The arithmetic of what was heard of one track, as a value: output frames written into the
/// song's frames and seconds, through the output's rate, the speed and what the stretcher carried
/// over from the song before, within the range the entry plays. Pure, so that seeks, ranges,
/// speeds, resumes and what reached the output are tested as a table.
struct HeardTime: Equatable {
    /// The song's rate, and the output's once it is known (nil: the same).
    var rate: Double
    var outputRate: Double?
    var speed = 1.0
    /// Frames of output the stretcher still held from the song before when this segment began.
    var carried = 0
    /// Where the range played begins in the file (0 for a whole file), and the frame after it
    /// ends (nil: the file's end, unknown).
    var firstFrame = 0
    var endFrame: Int?
    /// The song's frame where this segment starts (a seek, a resume), the frames decoded since,
    /// and frames heard in earlier segments of the same play.
    var startFrame = 0
    var decodedFrames = 0
    var heardBefore = 0

    /// `seconds` into a song at `rate` as a frame, from 0 to 2^50 (years of audio): a client's
    /// `seekcur 1e308` or a negative, infinite or NaN time is a place past the end or at the
    /// start, never a trap in the conversion.
    static func frame(at seconds: Double, rate: Double) -> Int {
        let frames = (seconds * rate).rounded()
        guard frames > 0 else { return 0 } // NaN fails here too
        return frames < 0x1p50 ? Int(frames) : 1 << 50
    }

    /// Frames of the output (at its rate) as frames of the song: at another speed, less what
    /// the stretcher carried over from the song before, times the speed (never more than were
    /// decoded: the stretcher's latency is not heard yet).
    func songFrames(output frames: Int) -> Int {
        var song = Double(frames)
        if speed != 1 { song = max(0, song - Double(carried)) * speed }
        if let out = outputRate, out != rate { song *= rate / out }
        let n = Int(song.rounded())
        return speed != 1 ? min(n, decodedFrames) : n
    }

    /// The song's frame reached once `output` frames of this segment were written.
    func frame(output: Int) -> Int { startFrame + songFrames(output: output) }

    /// A frame of the file in the song's own time, which begins where its range does (MPD's
    /// `elapsed`).
    func seconds(atFrame frame: Int) -> Double { Double(frame - firstFrame) / rate }

    /// Seconds heard of the play once the file's `frame` is reached: this segment's and the ones
    /// before it (seeks neither add nor take away).
    func heard(atFrame frame: Int) -> Double { Double(heardBefore + frame - startFrame) / rate }

    /// The file's frame a seek to `seconds` of the song lands on: within its range.
    func seekFrame(to seconds: Double) -> Int {
        let frame = firstFrame + Self.frame(at: seconds, rate: rate)
        return endFrame.map { min(frame, $0) } ?? frame
    }

    /// The frame where decoding ended: the song heard to there when its last slot is written.
    var endOfDecoding: Int { startFrame + decodedFrames }
}
