import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// WAV and AIFF files decode as sox decodes them, sample for sample, at every integer width and
/// channel count; float files hand their samples on unchanged; headers with padding, extensible
/// formats and cut-off ends are read as they are meant.
@Suite struct PCMFileDecoderTests {
    /// 8/16/24/32-bit, mono to 6 channels, WAV, AIFF and AIFF-C, against sox's decoding to
    /// 32-bit integers (which left-justifies every width, so the decoder's value is shifted up).
    @Test(arguments: ["wav", "aiff", "aifc"], [(8, 1), (16, 2), (24, 6), (32, 2), (24, 1)])
    func integerFilesDecodeAsSoxDoes(ext: String, shape: (bits: Int, channels: Int)) throws {
        let dir = TempDir("boomic-pcm")
        let path = dir.path + "/t." + ext
        try toolOutput(["sox", "-R", "-n", "-r", "22050", "-b", "\(shape.bits)", "-c", "\(shape.channels)", path,
                        "synth", "0.3", "sine", "440", "sine", "1001", "gain", "-1"])
        let decoder = try Decoders.open(path)
        #expect(decoder.format == PCMFormat(sampleRate: 22050, channels: shape.channels, bitsPerSample: shape.bits))
        let samples = try Self.decode(decoder)
        let reference = try Self.soxInt32(path)
        #expect(samples.count == reference.count)
        #expect(samples.map { $0 << (32 - shape.bits) } == reference)
        #expect(decoder.totalFrames == (try ToneTracks.frames(ofWAV: path)))
        #expect(decoder.warnings.isEmpty, "\(decoder.warnings)")
        #expect(samples.contains { $0 != 0 })
    }

    /// The sample library's WAV files (with their tag chunks) decode as sox decodes them.
    @Test func sampleWAVFilesDecodeAsSoxDoes() throws {
        let wavs = ManifestEntry.good.filter { $0.format == "wav" }.map { Repo.samples + "/" + $0.path }
        #expect(wavs.count >= 3)
        for path in wavs {
            let decoder = try Decoders.open(path)
            let bits = decoder.format.bitsPerSample
            #expect(try Self.decode(decoder).map { $0 << (32 - bits) } == (try Self.soxInt32(path)), "\(path)")
            #expect(decoder.warnings.isEmpty, "\(path): \(decoder.warnings)")
        }
    }

    /// Float WAV (32 and 64 bit): the float path gives the file's values, the integer path
    /// full-scale 32-bit integers as sox makes them (within one step of rounding).
    @Test(arguments: [32, 64]) func floatWAVKeepsItsSamples(bits: Int) throws {
        let dir = TempDir("boomic-pcm")
        let path = dir.path + "/f.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "48000", "-e", "floating-point", "-b", "\(bits)", "-c", "2", path,
                        "synth", "0.2", "sine", "440", "gain", "-2"])
        let decoder = try Decoders.open(path)
        #expect(decoder.format == .float(sampleRate: 48000, channels: 2))
        var floats: [Float] = []
        while try decoder.read(into: &floats, maxFrames: 1000) > 0 {}
        let data = try ToneTracks.wavData(ofFile: path)
        let expected: [Float] = data.withUnsafeBytes { raw in
            bits == 32
                ? (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
                : (0..<(data.count / 8)).map { Float(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)))) }
        }
        #expect(floats.map(\.bitPattern) == expected.map(\.bitPattern))
        let ints = try Self.decode(try Decoders.open(path))
        let reference = try Self.soxInt32(path)
        #expect(ints.count == reference.count)
        #expect(zip(ints, reference).allSatisfy { abs(Int64($0) - Int64($1)) <= 1 })
    }

    /// AIFF-C as macOS writes it (`sowt`, little-endian) and 32-bit float (`fl32`), which sox
    /// does not write: made here around sox's raw samples.
    @Test func aifcLittleEndianAndFloatDecode() throws {
        let dir = TempDir("boomic-pcm")
        let tone = dir.path + "/t.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", tone, "synth", "0.25", "sine", "300", "sine", "777"])
        let le16 = try toolOutput(["sox", tone, "-t", "raw", "-e", "signed-integer", "-b", "16", "-L", "-"])
        let sowt = dir.path + "/sowt.aifc"
        try Data(Self.aifc(type: "sowt", channels: 2, bits: 16, frames: le16.count / 4, data: le16)).write(to: URL(fileURLWithPath: sowt))
        let decoded = try Self.decode(try Decoders.open(sowt))
        #expect(decoded == le16.withUnsafeBytes { raw in (0..<(le16.count / 2)).map { Int32(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self))) } })

        let be32 = try toolOutput(["sox", tone, "-t", "raw", "-e", "floating-point", "-b", "32", "-B", "-"])
        let fl32 = dir.path + "/fl32.aifc"
        try Data(Self.aifc(type: "fl32", channels: 2, bits: 32, frames: be32.count / 8, data: be32)).write(to: URL(fileURLWithPath: fl32))
        let decoder = try Decoders.open(fl32)
        #expect(decoder.format.isFloat)
        var floats: [Float] = []
        while try decoder.read(into: &floats, maxFrames: 999) > 0 {}
        #expect(floats.map(\.bitPattern) == be32.withUnsafeBytes { raw in (0..<(be32.count / 4)).map { UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)) } })
    }

    /// An odd-sized chunk before the data (padded by one byte), an odd-sized 8-bit data chunk
    /// followed by another chunk: the samples are exactly the data chunk's.
    @Test func oddChunksArePaddedAndTheDataEndsWhereItSays() throws {
        let dir = TempDir("boomic-pcm")
        let data: [UInt8] = (0..<1001).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        var wav: [UInt8] = []
        func u32(_ v: Int) { for i in 0..<4 { wav.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        func u16(_ v: Int) { for i in 0..<2 { wav.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        wav += Array("RIFF".utf8); u32(0); wav += Array("WAVE".utf8)
        wav += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(8000); u32(8000); u16(1); u16(8)
        wav += Array("LIST".utf8); u32(3); wav += [1, 2, 3, 0]
        wav += Array("data".utf8); u32(data.count); wav += data; wav.append(0)
        wav += Array("JUNK".utf8); u32(4); wav += [9, 9, 9, 9]
        let path = dir.path + "/odd.wav"
        try Data(wav).write(to: URL(fileURLWithPath: path))
        let decoder = try Decoders.open(path)
        #expect(decoder.format == PCMFormat(sampleRate: 8000, channels: 1, bitsPerSample: 8))
        #expect(try Self.decode(decoder) == data.map { Int32($0) - 128 })
        #expect(decoder.warnings.isEmpty)
    }

    /// A file cut in the middle of a frame plays its whole frames, with a warning.
    @Test func aCutFilePlaysWhatIsThere() throws {
        let dir = TempDir("boomic-pcm")
        let whole = dir.path + "/whole.wav", cut = dir.path + "/cut.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "24", "-c", "2", whole, "synth", "0.5", "sine", "440"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let header = bytes.count - (try ToneTracks.wavData(bytes)).count
        try Data(bytes[..<(header + 1000 * 6 + 4)]).write(to: URL(fileURLWithPath: cut))
        let decoder = try Decoders.open(cut)
        #expect(decoder.totalFrames == 1000)
        #expect(try Self.decode(decoder) == Array(try Self.decode(try Decoders.open(whole)).prefix(2000)))
        #expect(decoder.warnings.count == 1)
    }

    /// A `wav:` file whose player died before `close()` (its header still says 0 bytes) plays
    /// every sample written, with a warning.
    @Test func aWAVSinkFileLeftOpenPlaysToItsEnd() throws {
        let dir = TempDir("boomic-pcm")
        let path = dir.path + "/crashed.wav"
        let sink = try WAVFileSink(path: path, format: PCMFormat(sampleRate: 48000, channels: 2, bitsPerSample: 24))
        let samples: [Int32] = (0..<3000).map { Int32($0 * 2797 % 16_000_000 - 8_000_000) }
        try sink.write(samples)
        let decoder = try Decoders.open(path)
        #expect(decoder.totalFrames == 1500)
        #expect(try Self.decode(decoder) == samples)
        #expect(decoder.warnings.count == 1)
        try sink.close()
    }

    /// Tracks cut at odd offsets from one tone join back into it, as WAV and as AIFF.
    @Test(arguments: ["wav", "aiff"]) func tracksJoinIntoTheOriginal(ext: String) throws {
        let dir = TempDir("boomic-pcm")
        let total = try ToneTracks.make(in: dir.path).last!
        var tracks: [String] = []
        for i in 0..<ToneTracks.cuts.count {
            let track = dir.path + "/t\(i)." + ext
            if ext != "wav" { try toolOutput(["sox", dir.path + "/t\(i).wav", track]) }
            tracks.append(track)
        }
        let out = dir.path + "/out.wav"
        try AudioFixtures.render(tracks, to: out)
        #expect(try ToneTracks.frames(ofWAV: out) == total)
        #expect(try ToneTracks.wavData(ofFile: out) == (try ToneTracks.wavData(ofFile: dir.path + "/tone.wav")))
    }

    @Test func foreignAndMissingFilesAreOneLineErrors() throws {
        let dir = TempDir("boomic-pcm")
        let text = dir.path + "/x.wav"
        try Data("RIFF not really".utf8).write(to: URL(fileURLWithPath: text))
        for path in [text, dir.path + "/missing.aiff"] {
            #expect { _ = try Decoders.open(path) } throws: { error in
                error is AudioError && "\(error)".hasPrefix(path + ": ") && !"\(error)".contains("\n")
            }
        }
    }

    static func decode(_ d: any AudioDecoder) throws -> [Int32] {
        var out: [Int32] = []
        while try d.read(into: &out, maxFrames: 777) > 0 {}
        return out
    }

    /// sox's decoding, as left-justified 32-bit integers.
    static func soxInt32(_ path: String) throws -> [Int32] {
        let raw = try toolOutput(["sox", path, "-t", "raw", "-e", "signed-integer", "-b", "32", "-L", "-"])
        return raw.withUnsafeBytes { b in (0..<(raw.count / 4)).map { Int32(littleEndian: b.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) } }
    }

    /// An AIFF-C file of `type` around `data`, rate 44.1 kHz.
    static func aifc(type: String, channels: Int, bits: Int, frames: Int, data: [UInt8]) -> [UInt8] {
        var f: [UInt8] = []
        func u32(_ v: Int) { for i in (0..<4).reversed() { f.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        func u16(_ v: Int) { for i in (0..<2).reversed() { f.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        f += Array("FORM".utf8); u32(0); f += Array("AIFC".utf8)
        f += Array("FVER".utf8); u32(4); u32(0xA280_5140)
        f += Array("COMM".utf8); u32(24); u16(channels); u32(frames); u16(bits)
        f += [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0] // 44100 as an 80-bit extended float
        f += Array(type.utf8); f += [0, 0] // an empty, padded name
        f += Array("SSND".utf8); u32(8 + data.count); u32(0); u32(0); f += data
        let size = f.count - 8
        for i in 0..<4 { f[4 + i] = UInt8(truncatingIfNeeded: size >> (8 * (3 - i))) }
        return f
    }
}
