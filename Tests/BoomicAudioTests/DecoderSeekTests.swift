import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// `--resume` and `seek` rely on a decoder landing on the exact sample asked for: after
/// `seek(toFrame:)`, the rest of the decode equals the tail of a decode from the start, for every
/// format, at a frame that is on no codec frame boundary.
@Suite struct DecoderSeekTests {
    static let target = 51_234

    @Test(arguments: ["flac", "mp3", "ogg", "opus", "wav", "aiff"])
    func seekLandsOnTheSampleAsked(_ ext: String) throws {
        let dir = TempDir("boomic-seek")
        try ToneTracks.make(in: dir.path)
        let source = dir.path + "/tone.wav", file = dir.path + "/seek." + ext
        switch ext {
        case "flac": try toolOutput(["flac", "-s", "-f", "-o", file, source])
        case "mp3": try toolOutput(["lame", "--quiet", "-b", "192", source, file])
        case "ogg": try toolOutput(["oggenc", "-Q", "-o", file, source])
        case "opus": try toolOutput(["opusenc", "--quiet", source, file])
        default: try toolOutput(["sox", source, file])
        }
        let whole = try AudioFixtures.decodeAll(try Decoders.open(file))
        let d = try Decoders.open(file)
        try d.seek(toFrame: Self.target)
        let tail = try AudioFixtures.decodeAll(d)
        let channels = d.format.channels
        #expect(tail.count == whole.count - Self.target * channels, "frames after the seek")
        let expected = Array(whole[(Self.target * channels)...])
        if ext == "opus" {
            // Opus decodes with state carried from packet to packet; libopusfile pre-rolls 80 ms
            // before the target so the state converges, but not to the bit. The position must be
            // exact: measured 36.6 dB here, where a seek one sample off gives 15 dB.
            #expect(AudioFixtures.snr(tail, expected) > 30, "SNR after the seek: \(AudioFixtures.snr(tail, expected)) dB")
        } else {
            let first = tail.indices.first { $0 >= expected.count || tail[$0] != expected[$0] }
            #expect(first == nil, "samples after the seek differ from a decode from the start, first at \(first ?? -1)")
        }

        let past = try Decoders.open(file)
        try past.seek(toFrame: whole.count)
        #expect(try AudioFixtures.decodeAll(past).isEmpty, "a seek past the end reads nothing")
    }
}
