import CTagLib

/// The container and codec TagLib recognised in a file.
///
/// The raw values are the short names stored in `FileFacts.format` and shown by `boomic ls`.
public enum AudioFormat: String, Hashable, Sendable, CaseIterable {
    case flac, mp3, m4a, ogg, opus, oggFLAC = "oga", speex = "spx", wav, aiff, wavpack = "wv"
    case ape, mpc, trueAudio = "tta", wma

    /// The format for TagLib's `ctl_format`, or nil for `CTL_FORMAT_UNKNOWN`.
    init?(_ format: ctl_format) {
        switch format {
        case CTL_FORMAT_FLAC: self = .flac
        case CTL_FORMAT_MPEG: self = .mp3
        case CTL_FORMAT_MP4: self = .m4a
        case CTL_FORMAT_OGG_VORBIS: self = .ogg
        case CTL_FORMAT_OGG_OPUS: self = .opus
        case CTL_FORMAT_OGG_FLAC: self = .oggFLAC
        case CTL_FORMAT_OGG_SPEEX: self = .speex
        case CTL_FORMAT_WAV: self = .wav
        case CTL_FORMAT_AIFF: self = .aiff
        case CTL_FORMAT_WAVPACK: self = .wavpack
        case CTL_FORMAT_APE: self = .ape
        case CTL_FORMAT_MPC: self = .mpc
        case CTL_FORMAT_TRUEAUDIO: self = .trueAudio
        case CTL_FORMAT_ASF: self = .wma
        default: return nil
        }
    }

    /// Ogg streams carry their tags in header pages ahead of the audio.
    var isOgg: Bool { self == .ogg || self == .opus || self == .oggFLAC || self == .speex }
}
