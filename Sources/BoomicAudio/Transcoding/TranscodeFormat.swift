/// What a song is transcoded to for a client that cannot take the file as it is (OpenSubsonic's
/// `stream?format=`): Ogg Opus or MP3, made by `boomic-ffmpeg encode`.
public enum TranscodeFormat: String, Sendable, CaseIterable {
    case opus, mp3

    /// The HTTP `Content-Type` of the stream.
    public var mimeType: String { self == .opus ? "audio/ogg" : "audio/mpeg" }

    /// The file suffix a client is told (Subsonic's `transcodedSuffix`).
    public var suffix: String { self == .opus ? "opus" : "mp3" }

    /// The bit rate (kbit/s) when the client names none: transparent for most music at each
    /// codec's usual setting.
    public var defaultKbps: Int { self == .opus ? 128 : 192 }

    /// The bit rates `boomic-ffmpeg` accepts; others are clamped into them.
    public var kbpsRange: ClosedRange<Int> { self == .opus ? 6...510 : 8...320 }

    /// The bit rates the codec takes for a source of `channels` channels: libopus takes 6 to
    /// 256 kbit/s a channel (within `kbpsRange`), of at most two channels, as `encode` mixes
    /// more down to stereo; MP3 takes `kbpsRange` whatever the channels.
    public func kbpsRange(channels: Int) -> ClosedRange<Int> {
        guard self == .opus else { return kbpsRange }
        let encoded = min(max(channels, 1), 2)
        return max(kbpsRange.lowerBound, 6 * encoded)...min(kbpsRange.upperBound, 256 * encoded)
    }
}
