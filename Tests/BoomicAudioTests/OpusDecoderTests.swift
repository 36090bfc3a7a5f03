import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// libopusfile through `OpusDecoder`: each track decodes, time-aligned, to its source within a
/// lossy codec's error, at exactly the source's length (the pre-skip and end trimming), so tracks
/// cut from one recording join at the original's length. (`opusdec` is no sample-exact reference:
/// its output differs from libopusfile's by hundreds of LSB even with `--no-dither`.)
@Suite struct OpusDecoderTests {
    @Test func tracksDecodeToTheirSourceAndJoinWithoutGap() throws {
        let dir = TempDir("boomic-opus")
        // Made at 48 kHz, so the joined length can be compared with the original's.
        let tone = dir.path + "/tone.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "48000", "-b", "16", "-c", "2", tone, "synth", "2", "sine", "300-3000"])
        let total = try ToneTracks.frames(ofWAV: tone)
        let bounds = [0, 31_013, 70_001, total]
        var tracks: [String] = []
        var reference: [UInt8] = []
        for i in 0..<3 {
            let wav = dir.path + "/t\(i).wav", opus = dir.path + "/t\(i).opus"
            try toolOutput(["sox", tone, wav, "trim", "\(bounds[i])s", "\(bounds[i + 1] - bounds[i])s"])
            try toolOutput(["opusenc", "--quiet", wav, opus])
            tracks.append(opus)
            let source = try ToneTracks.wavData(ofFile: wav)
            reference += source
            let d = try OpusDecoder(path: opus)
            var samples: [Int32] = []
            while case let n = try d.read(into: &samples, maxFrames: 960), n > 0 {}
            var data: [UInt8] = []
            WAVEncoding.append(samples, bitsPerSample: 16, to: &data)
            #expect(data.count == source.count, "track \(i): \(data.count) bytes decoded of a \(source.count)-byte source")
            #expect(Self.snr(data, source) > 20, "track \(i): signal-to-noise \(Self.snr(data, source)) dB against its source")
            #expect(d.totalFrames == bounds[i + 1] - bounds[i], "track \(i): \(d.totalFrames ?? -1) frames")
        }
        let out = dir.path + "/out.wav"
        try AudioFixtures.render(tracks, to: out)
        #expect(try ToneTracks.frames(ofWAV: out) == total, "the joined tracks are not the original's length")
        let joined = try ToneTracks.wavData(ofFile: out)
        #expect(joined.count == reference.count && Self.snr(joined, reference) > 20, "joined: \(Self.snr(joined, reference)) dB")
    }

    /// Signal-to-noise of `a` against `b` (16-bit little-endian), in dB: on this sweep, the source
    /// against itself shifted by one sample (a decoder with a wrong pre-skip) is 14.8 dB, by three 5.5.
    static func snr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return -.infinity }
        var signal = 0.0, noise = 0.0
        for i in stride(from: 0, to: a.count - 1, by: 2) {
            let x = Double(Int16(bitPattern: UInt16(a[i]) | UInt16(a[i + 1]) << 8))
            let y = Double(Int16(bitPattern: UInt16(b[i]) | UInt16(b[i + 1]) << 8))
            signal += y * y
            noise += (x - y) * (x - y)
        }
        return 10 * log10(signal / max(noise, 1))
    }

    @Test func foreignAndMissingFilesAreOneLineErrors() throws {
        for path in [Repo.samples + "/Broken/random.flac", Repo.samples + "/Broken/empty.flac", "/nonexistent/x.opus"] {
            #expect { _ = try OpusDecoder(path: path) } throws: { error in
                let text = "\(error)"
                return text.hasPrefix(path + ": ") && !text.contains("\n")
            }
        }
    }
}
