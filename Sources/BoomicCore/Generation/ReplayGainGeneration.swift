/// ReplayGain 2.0 values from measured loudness (`boomic loudness`), and the one transaction
/// that stores them.
///
/// ReplayGain 2.0 refers to -18 LUFS (EBU R128 loudness, as beets' replaygain plugin and rsgain
/// use it): the gain is what brings the song (or the album, measured as one) to that level. Peaks
/// are sample peaks as a ratio of full scale. Values are rounded as taggers write them (gains to
/// 0.01 dB, peaks to 6 decimals), so that `write` puts exactly the library's values in the files
/// and a rescan reads back what the library holds.
public enum ReplayGainGeneration {
    /// The reference level of ReplayGain 2.0, in LUFS.
    public static let referenceLoudness = -18.0

    /// What to store for one song: its track values and, when its whole album was measured,
    /// the album's.
    public struct Values: Hashable, Sendable {
        public var trackGain: Double
        public var trackPeak: Double
        public var albumGain: Double?
        public var albumPeak: Double?

        public init(trackGain: Double, trackPeak: Double, albumGain: Double? = nil, albumPeak: Double? = nil) {
            self.trackGain = trackGain
            self.trackPeak = trackPeak
            self.albumGain = albumGain
            self.albumPeak = albumPeak
        }
    }

    /// The gain, in dB, that brings `loudness` (LUFS) to the reference, rounded to 0.01 dB.
    public static func gain(loudness: Double) -> Double {
        rounded(referenceLoudness - loudness, places: 2)
    }

    /// A peak (ratio of full scale) as stored, rounded to 6 decimals.
    public static func peak(_ ratio: Double) -> Double {
        rounded(ratio, places: 6)
    }

    private static func rounded(_ x: Double, places: Int) -> Double {
        let f = places == 2 ? 100.0 : 1_000_000.0
        return (x * f).rounded() / f
    }

    /// The assertions that set the values on the latest basis: songs no longer there are left
    /// out, as are songs that already hold these values (so a second run commits nothing).
    /// A song given no album values keeps the album values it has.
    public static func assertions(_ values: [SongID: Values], on basis: DataBasis) -> [Assertion] {
        values.keys.sorted().compactMap { id in
            guard let old = basis[id], let v = values[id] else { return nil }
            // As an edit (`Song.edit`): the files' values are remembered, so `write` knows what
            // it has to put into them.
            var new = old
            new.edit(.replaygainTrackGain, to: .double(v.trackGain))
            new.edit(.replaygainTrackPeak, to: .double(v.trackPeak))
            if let g = v.albumGain, let p = v.albumPeak {
                new.edit(.replaygainAlbumGain, to: .double(g))
                new.edit(.replaygainAlbumPeak, to: .double(p))
            }
            let patch = old.patch(to: new)
            return patch.isEmpty ? nil : .updateSong(id, patch)
        }
    }
}
