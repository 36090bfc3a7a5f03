import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// libFLAC through `FLACDecoder` gives what `flac -d` (the reference decoder) writes, sample for
/// sample, at every width, rate and channel count; damaged and foreign files are one-line errors.
@Suite struct FLACDecoderTests {
    static let flacs = ManifestEntry.good.filter { $0.format == "flac" }.map { Repo.samples + "/" + $0.path }

    @Test func everySampleDecodesAsTheReferenceDecoderDoes() throws {
        #expect(Self.flacs.count >= 10)
        for path in Self.flacs {
            let reference = try Self.referenceData(path)
            let (format, data, frames) = try Self.decode(path)
            #expect(data == reference, "\(path): \(data.count) bytes decoded, flac -d wrote \(reference.count)")
            let d = try FLACDecoder(path: path)
            #expect(d.totalFrames == frames, "\(path): STREAMINFO says \(d.totalFrames ?? -1) frames, \(frames) decoded")
            #expect(format.sampleRate > 0 && d.warnings.isEmpty, "\(path): \(d.warnings)")
        }
    }

    /// 8-bit (stored unsigned in WAV), 24-bit 96 kHz with six channels: widths the samples lack.
    @Test(arguments: [("8000", "8", "1"), ("96000", "24", "6"), ("44100", "16", "2")])
    func madeFilesDecodeAsTheReferenceDecoderDoes(rate: String, bits: String, channels: String) throws {
        let dir = TempDir("boomic-flac")
        let wav = dir.path + "/t.wav", flac = dir.path + "/t.flac"
        try toolOutput(["sox", "-R", "-n", "-r", rate, "-b", bits, "-c", channels, wav, "synth", "0.37", "sine", "440", "sine", "1001"])
        try toolOutput(["flac", "-s", "-f", "-o", flac, wav])
        let (format, data, frames) = try Self.decode(flac)
        #expect(format == PCMFormat(sampleRate: Int(rate)!, channels: Int(channels)!, bitsPerSample: Int(bits)!))
        #expect(data == (try Self.referenceData(flac)))
        // The `wav:` sink's header (PCM or EXTENSIBLE) reads back as that format and length.
        let out = dir.path + "/out.wav"
        try AudioFixtures.render([flac], to: out)
        let info = try ["-s", "-r", "-c", "-b"].map { flag in
            String(decoding: try toolOutput(["soxi", flag, out]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(info == ["\(frames)", rate, channels, bits], "soxi reads the sink's file as \(info)")
        #expect(try ToneTracks.wavData(ofFile: out) == data)
    }

    /// However a caller sizes its reads, it gets the same samples.
    @Test func readSizesDoNotChangeTheSamples() throws {
        let path = try #require(Self.flacs.first)
        let (_, whole, _) = try Self.decode(path)
        for size in [1, 7, 4096, 1 << 20] {
            #expect(try Self.decode(path, readingAtMost: size).data == whole, "reads of \(size) frames")
        }
    }

    @Test func brokenAndMissingFilesAreOneLineErrors() throws {
        for name in ["empty.flac", "random.flac"] {
            let path = Repo.samples + "/Broken/" + name
            #expect { _ = try FLACDecoder(path: path) } throws: { error in
                let text = "\(error)"
                return text.hasPrefix(path + ": ") && !text.contains("\n")
            }
        }
        #expect { _ = try FLACDecoder(path: "/nonexistent/x.flac") } throws: { error in
            "\(error)" == "/nonexistent/x.flac: cannot open: No such file or directory"
        }
        // Cut short: what is there decodes, and the end comes early instead of a crash or a hang.
        let truncated = Repo.samples + "/Broken/truncated.flac"
        let d = try FLACDecoder(path: truncated)
        var out: [Int32] = []
        var frames = 0
        do {
            while case let n = try d.read(into: &out, maxFrames: 4096), n > 0 { frames += n }
        } catch {
            #expect("\(error)".hasPrefix(truncated + ": "))
        }
        #expect(frames < (d.totalFrames ?? .max), "a truncated file decoded whole?")
    }

    // MARK: Support

    static func decode(_ path: String, readingAtMost size: Int = 4096) throws -> (format: PCMFormat, data: [UInt8], frames: Int) {
        let d = try FLACDecoder(path: path)
        var samples: [Int32] = []
        var frames = 0
        while case let n = try d.read(into: &samples, maxFrames: size), n > 0 { frames += n }
        var data: [UInt8] = []
        WAVEncoding.append(samples, bitsPerSample: d.format.bitsPerSample, to: &data)
        return (d.format, data, frames)
    }

    /// The data chunk of what `flac -d` writes.
    static func referenceData(_ path: String) throws -> [UInt8] {
        try ToneTracks.wavData(try toolOutput(["flac", "-d", "-s", "-c", path]))
    }
}
