import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// Tracks cut from one continuous recording at odd sample offsets (not on any frame boundary)
/// join with zero samples of gap or overlap when decoded back to back into a `wav:` sink: FLAC
/// gives back the original exactly; MP3 gives each track's reference decoding, trimmed to the
/// track's own length, so the joined length is the original's.
@Suite struct GaplessJoinTests {
    @Test func flacTracksJoinIntoTheOriginal() throws {
        let dir = TempDir("boomic-gapless")
        let total = try ToneTracks.make(in: dir.path).last!
        var tracks: [String] = []
        for i in 0..<ToneTracks.cuts.count {
            try toolOutput(["flac", "-s", "-f", "-o", dir.path + "/t\(i).flac", dir.path + "/t\(i).wav"])
            tracks.append(dir.path + "/t\(i).flac")
        }
        let out = dir.path + "/out.wav"
        try AudioFixtures.render(tracks, to: out)
        #expect(try ToneTracks.frames(ofWAV: out) == total, "soxi reads the sink's header")
        let original = try ToneTracks.wavData(ofFile: dir.path + "/tone.wav")
        let joined = try ToneTracks.wavData(ofFile: out)
        #expect(joined.count == original.count, "\(joined.count - original.count) bytes of gap (+) or overlap (-)")
        #expect(joined == original)
    }

    @Test func mp3TracksJoinWithoutGap() throws {
        let dir = TempDir("boomic-gapless")
        let total = try ToneTracks.make(in: dir.path).last!
        var tracks: [String] = []
        var reference: [UInt8] = []
        for i in 0..<ToneTracks.cuts.count {
            let mp3 = dir.path + "/t\(i).mp3"
            try toolOutput(["lame", "--quiet", "-b", "256", dir.path + "/t\(i).wav", mp3])
            tracks.append(mp3)
            reference += try toolOutput(["mpg123", "-q", "-s", mp3])
        }
        let out = dir.path + "/out.wav"
        try AudioFixtures.render(tracks, to: out)
        #expect(try ToneTracks.frames(ofWAV: out) == total, "the joined tracks are not the original's length")
        #expect(try ToneTracks.wavData(ofFile: out) == reference)
    }
}
