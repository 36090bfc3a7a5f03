extension Song.Fields {
    /// Each optional number's bit in `present`.
    private enum Bit {
        static let track: UInt32 = 1 << 0
        static let tracktotal: UInt32 = 1 << 1
        static let disc: UInt32 = 1 << 2
        static let disctotal: UInt32 = 1 << 3
        static let year: UInt32 = 1 << 4
        static let samplerate: UInt32 = 1 << 5
        static let bitdepth: UInt32 = 1 << 6
        static let channels: UInt32 = 1 << 7
        static let bitrate: UInt32 = 1 << 8
        static let rating: UInt32 = 1 << 9
        static let replaygainTrackGain: UInt32 = 1 << 10
        static let replaygainTrackPeak: UInt32 = 1 << 11
        static let replaygainAlbumGain: UInt32 = 1 << 12
        static let replaygainAlbumPeak: UInt32 = 1 << 13
        static let duration: UInt32 = 1 << 14
        static let lastplayed: UInt32 = 1 << 15
        static let bookmark: UInt32 = 1 << 16
        static let bookmarkSpeed: UInt32 = 1 << 17
    }

    /// A number present or absent: the stored value when its bit is set. Setting nil keeps 0,
    /// so that two songs without the number are equal field by field.
    private static func put<N: Numeric>(_ new: N?, _ value: inout N, _ present: inout UInt32, _ bit: UInt32) {
        if let new {
            value = new
            present |= bit
        } else {
            value = 0
            present &= ~bit
        }
    }

    var track: Int? {
        get { present & Bit.track != 0 ? _track : nil }
        set { Self.put(newValue, &_track, &present, Bit.track) }
    }
    var tracktotal: Int? {
        get { present & Bit.tracktotal != 0 ? _tracktotal : nil }
        set { Self.put(newValue, &_tracktotal, &present, Bit.tracktotal) }
    }
    var disc: Int? {
        get { present & Bit.disc != 0 ? _disc : nil }
        set { Self.put(newValue, &_disc, &present, Bit.disc) }
    }
    var disctotal: Int? {
        get { present & Bit.disctotal != 0 ? _disctotal : nil }
        set { Self.put(newValue, &_disctotal, &present, Bit.disctotal) }
    }
    var year: Int? {
        get { present & Bit.year != 0 ? _year : nil }
        set { Self.put(newValue, &_year, &present, Bit.year) }
    }
    var samplerate: Int? {
        get { present & Bit.samplerate != 0 ? _samplerate : nil }
        set { Self.put(newValue, &_samplerate, &present, Bit.samplerate) }
    }
    var bitdepth: Int? {
        get { present & Bit.bitdepth != 0 ? _bitdepth : nil }
        set { Self.put(newValue, &_bitdepth, &present, Bit.bitdepth) }
    }
    var channels: Int? {
        get { present & Bit.channels != 0 ? _channels : nil }
        set { Self.put(newValue, &_channels, &present, Bit.channels) }
    }
    var bitrate: Int? {
        get { present & Bit.bitrate != 0 ? _bitrate : nil }
        set { Self.put(newValue, &_bitrate, &present, Bit.bitrate) }
    }
    var rating: Int? {
        get { present & Bit.rating != 0 ? _rating : nil }
        set { Self.put(newValue, &_rating, &present, Bit.rating) }
    }
    var replaygainTrackGain: Double? {
        get { present & Bit.replaygainTrackGain != 0 ? _replaygainTrackGain : nil }
        set { Self.put(newValue, &_replaygainTrackGain, &present, Bit.replaygainTrackGain) }
    }
    var replaygainTrackPeak: Double? {
        get { present & Bit.replaygainTrackPeak != 0 ? _replaygainTrackPeak : nil }
        set { Self.put(newValue, &_replaygainTrackPeak, &present, Bit.replaygainTrackPeak) }
    }
    var replaygainAlbumGain: Double? {
        get { present & Bit.replaygainAlbumGain != 0 ? _replaygainAlbumGain : nil }
        set { Self.put(newValue, &_replaygainAlbumGain, &present, Bit.replaygainAlbumGain) }
    }
    var replaygainAlbumPeak: Double? {
        get { present & Bit.replaygainAlbumPeak != 0 ? _replaygainAlbumPeak : nil }
        set { Self.put(newValue, &_replaygainAlbumPeak, &present, Bit.replaygainAlbumPeak) }
    }
    var duration: Double? {
        get { present & Bit.duration != 0 ? _duration : nil }
        set { Self.put(newValue, &_duration, &present, Bit.duration) }
    }
    var lastplayed: Double? {
        get { present & Bit.lastplayed != 0 ? _lastplayed : nil }
        set { Self.put(newValue, &_lastplayed, &present, Bit.lastplayed) }
    }
    var bookmark: Double? {
        get { present & Bit.bookmark != 0 ? _bookmark : nil }
        set { Self.put(newValue, &_bookmark, &present, Bit.bookmark) }
    }
    var bookmarkSpeed: Double? {
        get { present & Bit.bookmarkSpeed != 0 ? _bookmarkSpeed : nil }
        set { Self.put(newValue, &_bookmarkSpeed, &present, Bit.bookmarkSpeed) }
    }

    // The digests and ids most songs have one of their own (CompactDigest.swift).
    var fingerprint: String? {
        get { _fingerprint?.string }
        set { _fingerprint = newValue.map(CompactDigest.init) }
    }
    var mbTrackID: String? {
        get { _mbTrackID?.string }
        set { _mbTrackID = newValue.map(CompactDigest.init) }
    }
    var mbReleaseTrackID: String? {
        get { _mbReleaseTrackID?.string }
        set { _mbReleaseTrackID = newValue.map(CompactDigest.init) }
    }
}
