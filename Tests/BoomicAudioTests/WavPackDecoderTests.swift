import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// WavPack through libwavpack: what `wvunpack` gives, bit for bit, for integer and float files,
/// hybrid ones with their correction file, seeks to the exact sample, and a damaged block played
/// as silence of its length.
@Suite struct WavPackDecoderTests {
    /// sox's options for each source: 16-bit and 24-bit stereo, 8-bit mono, 32-bit float.
    static let sources: [[String]] = [["-b", "16", "-c", "2"], ["-b", "24", "-c", "2"], ["-b", "8", "-c", "1"],
                                      ["-e", "floating-point", "-b", "32", "-c", "2"]]

    @Test(arguments: 0..<4)
    func decodesToWhatWvunpackWrites(_ source: Int) throws {
        let dir = TempDir("boomic-wavpack")
        let wav = dir.path + "/tone.wav", file = dir.path + "/tone.wv"
        try toolOutput(["sox", "-R", "-n", "-r", "48000"] + Self.sources[source] + [wav, "synth", "1.234", "sine", "300-3000", "gain", "-3"])
        try toolOutput(["wavpack", "-q", "-y", wav, "-o", file])
        let d = try Decoders.open(file)
        #expect(d is WavPackDecoder)
        let reference = try ToneTracks.wavData(toolOutput(["wvunpack", "-q", "-y", file, "-o", "-"]))
        let decoded = try AudioFixtures.decodeAll(d)
        #expect(d.totalFrames == decoded.count / d.format.channels)
        let same = Self.bytes(decoded, format: d.format) == reference
        #expect(same, "\(d.format) differs from wvunpack's output")
        #expect(d.warnings.isEmpty)
    }

    /// A hybrid file is lossy alone and lossless with its `.wvc` beside it.
    @Test func aHybridFileDecodesLosslessWithItsCorrectionFile() throws {
        let dir = TempDir("boomic-wavpack")
        try ToneTracks.make(in: dir.path)
        let wav = dir.path + "/tone.wav", file = dir.path + "/tone.wv"
        try toolOutput(["wavpack", "-q", "-y", "-b3", "-c", wav, "-o", file])
        #expect(FileManager.default.fileExists(atPath: dir.path + "/tone.wvc"))
        let original = try ToneTracks.wavData(ofFile: wav)
        let lossless = try AudioFixtures.decodeAll(try Decoders.open(file))
        #expect(Self.bytes(lossless, format: PCMFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 16)) == original)
        try FileManager.default.removeItem(atPath: dir.path + "/tone.wvc")
        let lossy = try AudioFixtures.decodeAll(try Decoders.open(file))
        #expect(lossy.count == lossless.count && lossy != lossless, "without the .wvc the hybrid file is its lossy part")
    }

    @Test func seekLandsOnTheSampleAsked() throws {
        let dir = TempDir("boomic-wavpack")
        try ToneTracks.make(in: dir.path)
        let file = dir.path + "/tone.wv"
        try toolOutput(["wavpack", "-q", "-y", dir.path + "/tone.wav", "-o", file])
        let whole = try AudioFixtures.decodeAll(try Decoders.open(file))
        let d = try Decoders.open(file)
        for target in [51_234, 1, whole.count / 2 - 1, 0, 100_003] {
            try d.seek(toFrame: target)
            var tail: [Int32] = []
            while try d.read(into: &tail, maxFrames: 1_000) > 0 {}
            let same = tail == Array(whole[(target * 2)...])
            #expect(same, "after a seek to \(target) the samples are not a decode from the start's")
        }
        try d.seek(toFrame: whole.count / 2)
        #expect(try AudioFixtures.decodeAll(d).isEmpty, "a seek to the end reads nothing")
    }

    @Test func aDamagedBlockIsSilenceOfItsLength() throws {
        let dir = TempDir("boomic-wavpack")
        try ToneTracks.make(in: dir.path)
        let file = dir.path + "/tone.wv"
        try toolOutput(["wavpack", "-q", "-y", dir.path + "/tone.wav", "-o", file])
        let clean = try AudioFixtures.decodeAll(try Decoders.open(file))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        for i in (bytes.count / 2)..<(bytes.count / 2 + 400) { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let d = try Decoders.open(file)
        let damaged = try AudioFixtures.decodeAll(d)
        #expect(damaged.count == clean.count, "the damage changed the length by \(damaged.count - clean.count) samples")
        #expect(d.warnings.contains { $0.contains("damaged block") }, "\(d.warnings)")
        let differing = damaged.indices.filter { damaged[$0] != clean[$0] }
        #expect(!differing.isEmpty && differing.allSatisfy { damaged[$0] == 0 }, "what differs is not silence")
    }

    @Test func aFileThatIsNoWavPackIsOneLine() throws {
        let dir = TempDir("boomic-wavpack")
        let file = dir.path + "/junk.wv"
        try Data("wvpk but not really".utf8).write(to: URL(fileURLWithPath: file))
        let error = #expect(throws: AudioError.self) { try WavPackDecoder(path: file) }
        #expect(error.map { $0.description.hasPrefix(file + ": not a WavPack stream") && !$0.description.contains("\n") } == true,
                "\(String(describing: error))")
    }

    /// Samples as a WAV data chunk holds them: little-endian, the format's width (float as IEEE).
    static func bytes(_ samples: [Int32], format: PCMFormat) -> [UInt8] {
        let width = format.bitsPerSample / 8
        var out: [UInt8] = []
        out.reserveCapacity(samples.count * width)
        for s in samples {
            if format.isFloat {
                let f = Float(Double(s) / 2_147_483_648)
                withUnsafeBytes(of: f.bitPattern.littleEndian) { out.append(contentsOf: $0) }
            } else if width == 1 {
                out.append(UInt8(truncatingIfNeeded: s + 128))
            } else {
                for k in 0..<width { out.append(UInt8(truncatingIfNeeded: s >> Int32(8 * k))) }
            }
        }
        return out
    }
}
