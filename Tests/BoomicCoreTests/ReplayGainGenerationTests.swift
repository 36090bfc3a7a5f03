import Foundation
import Testing
@testable import BoomicCore

@Suite struct ReplayGainGenerationTests {
    @Test func gainsReferToMinus18LUFSAndAreRoundedAsTaggersWriteThem() {
        #expect(ReplayGainGeneration.gain(loudness: -19.99) == 1.99)
        #expect(ReplayGainGeneration.gain(loudness: -7.123) == -10.88)
        #expect(ReplayGainGeneration.peak(0.1000372) == 0.100037)
    }

    @Test func valuesAreEditsThatWriteKnowsToPutIntoTheFiles() throws {
        var s = Song(id: SongID(UUID()), path: "/m/a.flac")
        s.replaygainAlbumGain = -3; s.replaygainAlbumPeak = 0.5
        let b = DataBasis.empty.applying([.addSong(s)])
        let v = ReplayGainGeneration.Values(trackGain: 1.99, trackPeak: 0.1)
        let a = ReplayGainGeneration.assertions([s.id: v, SongID(UUID()): v], on: b)
        #expect(a.count == 1, "a song no longer there is left out")
        let after = try #require(b.applying(a)[s.id])
        #expect(after.replaygainTrackGain == 1.99 && after.replaygainTrackPeak == 0.1)
        #expect(after.replaygainAlbumGain == -3 && after.replaygainAlbumPeak == 0.5, "no album values: the album's stay")
        #expect(after.fileValueMap[.replaygainTrackGain] == .null, "the file's value is remembered for write")
        #expect(ReplayGainGeneration.assertions([s.id: v], on: b.applying(a)).isEmpty, "a second run changes nothing")
    }
}
