import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// libmpg123 through `MP3Decoder` gives what `mpg123 -s` (the reference decoder) writes, sample
/// for sample, with the encoder's delay and padding cut (gapless).
@Suite struct MP3DecoderTests {
    static let mp3s = ManifestEntry.good.filter { $0.format == "mp3" }.map { Repo.samples + "/" + $0.path }

    @Test func everySampleDecodesAsTheReferenceDecoderDoes() throws {
        #expect(Self.mp3s.count >= 5)
        for path in Self.mp3s {
            let reference = try toolOutput(["mpg123", "-q", "-s", path])
            let (format, data, frames) = try Self.decode(path)
            #expect(data == reference, "\(path): \(data.count) bytes decoded, mpg123 -s wrote \(reference.count)")
            #expect(format.bitsPerSample == 16 && frames * format.channels * 2 == data.count)
            #expect(try MP3Decoder(path: path).totalFrames == frames, "\(path): the scanned length is not what decodes")
        }
    }

    /// A LAME file of N samples decodes to exactly N: the encoder's delay and padding are gone.
    @Test func gaplessTrimmingGivesBackTheEncodedLength() throws {
        let dir = TempDir("boomic-mp3")
        let wav = dir.path + "/t.wav", mp3 = dir.path + "/t.mp3"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", wav, "synth", "44321s", "sine", "440"])
        try toolOutput(["lame", "--quiet", "-b", "192", wav, mp3])
        // sox reads a length in samples at its default rate before the output's: ask it what it made.
        let source = Int(String(decoding: try toolOutput(["soxi", "-s", wav]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        let (format, _, frames) = try Self.decode(mp3)
        #expect(format == PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16))
        #expect(source != nil && source! % 1152 != 0, "the source should not fill whole MP3 frames")
        #expect(frames == source, "decoded \(frames) frames of a \(source ?? -1)-frame source")
    }

    /// The engine decodes straight into its ring's slots (`read(into:` a buffer): however big
    /// they are, a frame split between two reads gives the same samples as `mpg123 -s`.
    @Test(arguments: [1, 7, 1152, 2048, 5000])
    func bufferReadsOfAnySizeGiveTheReferenceSamples(size: Int) throws {
        let path = try #require(Self.mp3s.first)
        let reference = try toolOutput(["mpg123", "-q", "-s", path])
        let d = try MP3Decoder(path: path)
        let channels = d.format.channels
        var buffer = [Int32](repeating: 0, count: size * channels)
        var samples: [Int32] = []
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try d.read(into: $0, maxFrames: size) }
            if n == 0 { break }
            samples += buffer.prefix(n * channels)
        }
        var data: [UInt8] = []
        WAVEncoding.append(samples, bitsPerSample: 16, to: &data)
        #expect(data == reference, "reads of \(size) frames: \(data.count) bytes, mpg123 -s wrote \(reference.count)")
    }

    @Test func foreignAndMissingFilesAreOneLineErrors() throws {
        for path in [Repo.samples + "/Broken/random.flac", Repo.samples + "/Broken/empty.flac", "/nonexistent/x.mp3"] {
            #expect { _ = try MP3Decoder(path: path) } throws: { error in
                let text = "\(error)"
                return text.hasPrefix(path + ": ") && !text.contains("\n")
            }
        }
    }

    static func decode(_ path: String) throws -> (format: PCMFormat, data: [UInt8], frames: Int) {
        let d = try MP3Decoder(path: path)
        var samples: [Int32] = []
        var frames = 0
        while case let n = try d.read(into: &samples, maxFrames: 1152), n > 0 { frames += n }
        var data: [UInt8] = []
        WAVEncoding.append(samples, bitsPerSample: 16, to: &data)
        return (d.format, data, frames)
    }
}
