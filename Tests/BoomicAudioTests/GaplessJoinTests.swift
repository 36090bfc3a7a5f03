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

    /// ALAC (through FFmpeg) and WavPack (libwavpack): lossless, so the joined tracks are the
    /// original.
    @Test(arguments: ["m4a", "wv"])
    func alacAndWavPackTracksJoinIntoTheOriginal(_ ext: String) throws {
        let dir = TempDir("boomic-gapless")
        let total = try ToneTracks.make(in: dir.path).last!
        var tracks: [String] = []
        for i in 0..<ToneTracks.cuts.count {
            let wav = dir.path + "/t\(i).wav", file = dir.path + "/t\(i)." + ext
            if ext == "wv" {
                try toolOutput(["wavpack", "-q", "-y", wav, "-o", file])
            } else {
                try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "alac", file])
            }
            tracks.append(file)
        }
        let out = dir.path + "/out.wav"
        try AudioFixtures.render(tracks, to: out)
        #expect(try ToneTracks.frames(ofWAV: out) == total)
        #expect(try ToneTracks.wavData(ofFile: out) == (try ToneTracks.wavData(ofFile: dir.path + "/tone.wav")))
    }

    /// AAC in M4A: each track plays exactly the length its edit list states (FFmpeg's own
    /// decoding without the encoder's delay and padding), so the tracks join with nothing
    /// between them. FFmpeg's encoder states lengths a few samples off its input (measured:
    /// 37,003 frames in, 37,000 stated; 41,183 in, 41,189 stated), so the join is judged by what
    /// the files say, not by the WAV they came from.
    @Test func aacTracksJoinWithoutGap() throws {
        let dir = TempDir("boomic-gapless")
        try ToneTracks.make(in: dir.path)
        var joined: [Float] = []
        var reference: [Float] = []
        var stated = 0
        for i in 0..<ToneTracks.cuts.count {
            let file = dir.path + "/t\(i).m4a"
            try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", dir.path + "/t\(i).wav", "-c:a", "aac", "-b:a", "192k", file])
            let length = Int(String(decoding: try toolOutput(["ffprobe", "-v", "error", "-show_entries", "stream=duration_ts",
                                                              "-of", "csv=p=0", file]), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            let d = try Decoders.open(file)
            #expect(d.totalFrames == length)
            while try d.read(into: &joined, maxFrames: 4096) > 0 {}
            let whole = FFmpegDecoderTests.floats(try toolOutput(["ffmpeg", "-v", "error", "-i", file, "-f", "f32le", "-"]))
            #expect(whole.count > 2 * length, "ffmpeg plays the padding of the last frame")
            reference += whole.prefix(2 * length)
            stated += length
        }
        #expect(joined.count == 2 * stated, "\(joined.count / 2 - stated) frames of gap (+) or overlap (-)")
        let same = joined == reference
        #expect(same, "the joined tracks are not FFmpeg's decoding of each, trimmed")
    }
}
