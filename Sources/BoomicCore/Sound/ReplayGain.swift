import Foundation

/// ReplayGain as MPD applies it: which of a song's gains to use, the preamp, the gain for songs
/// without tags, and the peak limit, as one pure rule the engine asks per song.
public enum ReplayGainMode: String, Codable, Hashable, Sendable, CaseIterable {
    /// The default, as in MPD: playback stays bit-exact unless asked.
    case off
    case track
    case album
    /// Album gain unless shuffle (or random) is on, when neighbours are from other albums
    /// (MPD's `auto`).
    case auto
}

/// A song's ReplayGain tags, as the library stores them (`replaygainTrackGain` …): gains in dB,
/// peaks as linear sample magnitudes (1.0 = full scale).
public struct ReplayGainTags: Hashable, Sendable {
    public var trackGain, trackPeak, albumGain, albumPeak: Double?

    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        (self.trackGain, self.trackPeak, self.albumGain, self.albumPeak) = (trackGain, trackPeak, albumGain, albumPeak)
    }
}

/// The gain ReplayGain asks for one song; `linear` multiplies the samples.
public struct ReplayGainLevel: Hashable, Sendable {
    /// dB; 0 when ReplayGain is off.
    public var decibels: Double
    /// Whether the peak held the gain back (so the song plays quieter than its tag says).
    public var limitedByPeak: Bool

    public var linear: Double { decibels == 0 ? 1 : pow(10, decibels / 20) }
}

public enum ReplayGain {
    /// The gain for a song: in `album` mode the album's gain (the track's when the album has
    /// none), in `track` mode the reverse, `auto` as `album` unless `shuffle`; `preamp` dB on
    /// top; a song with neither gain gets `missing` dB (without the preamp, as MPD). The gain is
    /// then held so that peak × gain ≤ 1, using the peak that goes with the gain used, so a
    /// song whose peak says it would clip never does. `off` is 0 dB whatever the tags.
    public static func level(
        mode: ReplayGainMode, tags: ReplayGainTags, shuffle: Bool, preamp: Double = 0, missing: Double = 0
    ) -> ReplayGainLevel {
        let useAlbum: Bool
        switch mode {
        case .off: return ReplayGainLevel(decibels: 0, limitedByPeak: false)
        case .track: useAlbum = false
        case .album: useAlbum = true
        case .auto: useAlbum = !shuffle
        }
        let album = tags.albumGain.map { ($0, tags.albumPeak) }, track = tags.trackGain.map { ($0, tags.trackPeak) }
        guard let (gain, peak) = useAlbum ? (album ?? track) : (track ?? album) else {
            return ReplayGainLevel(decibels: missing, limitedByPeak: false)
        }
        let wanted = gain + preamp
        if let peak, peak > 0, wanted + 20 * log10(peak) > 0 {
            return ReplayGainLevel(decibels: -20 * log10(peak), limitedByPeak: true)
        }
        return ReplayGainLevel(decibels: wanted, limitedByPeak: false)
    }
}

extension ReplayGainTags {
    /// The song's four ReplayGain fields, as `boomic loudness` or the files' tags left them.
    public init(_ song: Song) {
        self.init(trackGain: song.replaygainTrackGain, trackPeak: song.replaygainTrackPeak,
                  albumGain: song.replaygainAlbumGain, albumPeak: song.replaygainAlbumPeak)
    }
}
