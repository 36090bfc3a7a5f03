import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// libvorbisfile through `VorbisDecoder` gives what `oggdec` writes, sample for sample; tracks
/// cut from one recording join at the original's length (Vorbis trims by granule position).
@Suite struct VorbisDecoderTests {
    static let oggs = ManifestEntry.good.filter { $0.format == "ogg" }.map { Repo.samples + "/" + $0.path }

    @Test func everySampleDecodesAsTheReferenceDecoderDoes() throws {
        #expect(Self.oggs.count >= 1)
        for path in Self.oggs {
            let reference = try ToneTracks.wavData(try toolOutput(["oggdec", "-Q", "-o", "-", path]))
            let d = try VorbisDecoder(path: path)
            var samples: [Int32] = []
            var frames = 0
            while case let n = try d.read(into: &samples, maxFrames: 1000), n > 0 { frames += n }
            var data: [UInt8] = []
            WAVEncoding.append(samples, bitsPerSample: 16, to: &data)
            #expect(data == reference, "\(path): \(data.count) bytes decoded, oggdec wrote \(reference.count)")
            #expect(d.totalFrames == frames)
        }
    }

    @Test func tracksJoinWithoutGap() throws {
        let dir = TempDir("boomic-gapless")
        let total = try ToneTracks.make(in: dir.path).last!
        var tracks: [String] = []
        var reference: [UInt8] = []
        for i in 0..<ToneTracks.cuts.count {
            let ogg = dir.path + "/t\(i).ogg"
            try toolOutput(["oggenc", "-Q", "-q", "5", "-o", ogg, dir.path + "/t\(i).wav"])
            tracks.append(ogg)
            reference += try ToneTracks.wavData(try toolOutput(["oggdec", "-Q", "-o", "-", ogg]))
        }
        let out = dir.path + "/out.wav"
        try AudioFixtures.render(tracks, to: out)
        #expect(try ToneTracks.frames(ofWAV: out) == total, "the joined tracks are not the original's length")
        #expect(try ToneTracks.wavData(ofFile: out) == reference)
    }

    @Test func foreignAndMissingFilesAreOneLineErrors() throws {
        for path in [Repo.samples + "/Broken/random.flac", Repo.samples + "/Broken/empty.flac", "/nonexistent/x.ogg"] {
            #expect { _ = try VorbisDecoder(path: path) } throws: { error in
                let text = "\(error)"
                return text.hasPrefix(path + ": ") && !text.contains("\n")
            }
        }
    }
}
