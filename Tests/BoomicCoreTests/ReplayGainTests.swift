import Foundation
import Testing
@testable import BoomicCore

/// MPD's ReplayGain rule as a pure function: which gain, preamp, missing, peak limit.
@Suite struct ReplayGainTests {
    static let tagged = ReplayGainTags(trackGain: -7.5, trackPeak: 0.9, albumGain: -9, albumPeak: 0.98)

    @Test func modesPickTheirGain() {
        func db(_ mode: ReplayGainMode, shuffle: Bool = false, tags: ReplayGainTags = ReplayGainTests.tagged) -> Double {
            ReplayGain.level(mode: mode, tags: tags, shuffle: shuffle).decibels
        }
        #expect(db(.off) == 0 && ReplayGain.level(mode: .off, tags: Self.tagged, shuffle: false, preamp: 6, missing: -3).linear == 1)
        #expect(db(.track) == -7.5 && db(.album) == -9)
        #expect(db(.auto) == -9 && db(.auto, shuffle: true) == -7.5)
        // The other gain stands in for a missing one.
        #expect(db(.album, tags: ReplayGainTags(trackGain: -4)) == -4)
        #expect(db(.track, tags: ReplayGainTags(albumGain: -5)) == -5)
    }

    @Test func preampAndMissingApplyOnlyWhereTheyShould() {
        let withPreamp = ReplayGain.level(mode: .track, tags: Self.tagged, shuffle: false, preamp: 3, missing: -6)
        #expect(withPreamp.decibels == -4.5 && !withPreamp.limitedByPeak)
        let untagged = ReplayGain.level(mode: .album, tags: ReplayGainTags(), shuffle: false, preamp: 3, missing: -6)
        #expect(untagged.decibels == -6)
        #expect(ReplayGain.level(mode: .auto, tags: ReplayGainTags(), shuffle: true, preamp: -2).decibels == 0)
    }

    /// A gain that would lift the peak above full scale is held to 1/peak.
    @Test func thePeakLimitsTheGain() {
        let quiet = ReplayGainTags(trackGain: 8, trackPeak: 0.5)
        let level = ReplayGain.level(mode: .track, tags: quiet, shuffle: false)
        #expect(level.limitedByPeak && abs(level.linear * 0.5 - 1) < 1e-12)
        let preampTooHigh = ReplayGain.level(mode: .album, tags: Self.tagged, shuffle: false, preamp: 10)
        #expect(preampTooHigh.limitedByPeak && preampTooHigh.linear * 0.98 <= 1 + 1e-12)
        // Without a peak there is nothing to limit with.
        #expect(ReplayGain.level(mode: .track, tags: ReplayGainTags(trackGain: 8), shuffle: false).decibels == 8)
    }

    /// The rule reads a song's library fields.
    @Test func tagsComeFromTheSong() {
        var song = Song(id: songID(1), path: "/m/a.flac")
        song.replaygainTrackGain = -6.2; song.replaygainTrackPeak = 0.91
        song.replaygainAlbumGain = -7.0; song.replaygainAlbumPeak = 0.99
        #expect(ReplayGainTags(song) == ReplayGainTags(trackGain: -6.2, trackPeak: 0.91, albumGain: -7.0, albumPeak: 0.99))
        #expect(ReplayGain.level(mode: .auto, tags: ReplayGainTags(song), shuffle: false).decibels == -7.0)
    }
}
