import BoomicCore

/// One song to transcode: its file, the part of it that is the song (a CUE track's or a
/// chapter's `PlayRange`; nil for the whole file), where in the song to start, and the codec.
public struct TranscodeRequest: Sendable, Equatable {
    public var path: String
    public var range: PlayRange?
    /// Seconds into the song (not the file) where the stream starts: OpenSubsonic's
    /// `timeOffset` (its `transcodeOffset` extension).
    public var offset: Double
    public var format: TranscodeFormat
    /// kbit/s, clamped to what the codec takes for the song's channels (`kbps(channels:)`), or
    /// to the codec's whole range when they are not known.
    public var kbps: Int

    /// - kbps: the client's rate (nil: the format's default).
    /// - channels: the song's channels as the library knows them, if it does; the transcoder
    ///   clamps again to the channels the file decodes to.
    public init(path: String, range: PlayRange? = nil, offset: Double = 0, format: TranscodeFormat, kbps: Int? = nil,
                channels: Int? = nil) {
        self.path = path
        self.range = range
        self.offset = offset.isFinite ? max(0, offset) : 0
        self.format = format
        let asked = kbps ?? format.defaultKbps
        self.kbps = min(max(asked, format.kbpsRange.lowerBound), format.kbpsRange.upperBound)
        if let channels { self.kbps = self.kbps(channels: channels) }
    }

    /// The rate the encoder is given for a source of `channels` channels: `kbps` clamped to
    /// `TranscodeFormat.kbpsRange(channels:)` (a mono Opus stream asked at 510 kbit/s is made
    /// at 256, libopus's most for one channel).
    public func kbps(channels: Int) -> Int {
        let allowed = format.kbpsRange(channels: channels)
        return min(max(kbps, allowed.lowerBound), allowed.upperBound)
    }

    /// The first and the end frame (exclusive; nil: the file's end) to decode at `rate`.
    func frames(rate: Int) -> (first: Int, end: Int?) {
        let r = Double(rate)
        let start = (range?.start ?? 0) + offset
        let end = range?.end.map { Self.frame(at: $0, rate: r) }
        let first = Self.frame(at: start, rate: r)
        return (end.map { min(first, $0) } ?? first, end)
    }

    /// `seconds` at `rate` as a frame, as the player counts (never negative, never a trap).
    static func frame(at seconds: Double, rate: Double) -> Int {
        let frames = (seconds * rate).rounded()
        guard frames > 0 else { return 0 }
        return frames < 0x1p50 ? Int(frames) : 1 << 50
    }
}
