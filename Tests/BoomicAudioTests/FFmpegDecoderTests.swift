import BoomicAudio
import BoomicCore
import BoomicDecoderPipe
import BoomicTestSupport
import Foundation
import Testing

/// The formats Boomic decodes through FFmpeg (`boomic-ffmpeg` on a pipe): lossless ones give
/// back the original bit for bit, AAC gives FFmpeg's own decoding trimmed to the encoder's
/// length, damage is silence of its length, and a hostile file, a crash of the decoder or no
/// decoder at all is one line, never a hang or a crash of the player.
@Suite struct FFmpegDecoderTests {
    /// Lossless codecs in FFmpeg's containers, with the command that makes each from a WAV.
    static let lossless: [(ext: String, make: @Sendable (String, String) -> [String])] = [
        ("m4a", { ["ffmpeg", "-v", "error", "-y", "-i", $0, "-c:a", "alac", $1] }),
        ("wv", { ["wavpack", "-q", "-y", $0, "-o", $1] }),
        ("oga", { ["ffmpeg", "-v", "error", "-y", "-i", $0, "-c:a", "flac", $1] }),
    ]

    @Test(arguments: [0, 1, 2], [16, 24])
    func losslessDecodesToTheOriginal(_ format: Int, _ bits: Int) throws {
        let (ext, make) = Self.lossless[format]
        let dir = TempDir("boomic-ffmpeg")
        let wav = dir.path + "/tone.wav", file = dir.path + "/tone." + ext
        try toolOutput(["sox", "-R", "-n", "-r", bits == 24 ? "48000" : "44100", "-b", String(bits), "-c", "2", wav,
                        "synth", "2.345", "sine", "300-3000", "sine", "441", "gain", "-3"])
        try toolOutput(make(wav, file))
        let d = try Self.open(file)
        #expect(d.format == PCMFormat(sampleRate: bits == 24 ? 48_000 : 44_100, channels: 2, bitsPerSample: bits))
        let original = try Self.samples(ofWAV: wav, bits: bits)
        #expect(d.totalFrames == original.count / 2)
        let decoded = try AudioFixtures.decodeAll(d)
        #expect(decoded.count == original.count, "\(decoded.count - original.count) samples more than the original")
        let same = decoded == original
        #expect(same, "\(ext) \(bits)-bit differs from the original")
        #expect(d.warnings.isEmpty)
    }

    @Test func aacIsFFmpegsDecodingTrimmedToTheEncodersLength() throws {
        let dir = TempDir("boomic-ffmpeg")
        let frames = try ToneTracks.make(in: dir.path).last!
        let file = dir.path + "/tone.m4a"
        try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", dir.path + "/tone.wav", "-c:a", "aac", "-b:a", "160k", file])
        let d = try Self.open(file)
        #expect(d.format == .float(sampleRate: 44_100, channels: 2))
        var decoded: [Float] = []
        while try d.read(into: &decoded, maxFrames: 4096) > 0 {}
        // ffmpeg itself plays the last frame whole, padding included; the edit list says where
        // the music ends, which is the WAV's length.
        let reference = Self.floats(try toolOutput(["ffmpeg", "-v", "error", "-i", file, "-f", "f32le", "-"]))
        #expect(reference.count > frames * 2)
        #expect(decoded.count == frames * 2)
        let same = decoded == Array(reference.prefix(frames * 2))
        #expect(same, "not FFmpeg's decoding")
    }

    /// An iTunes file has no edit list but an `iTunSMPB` tag (delay, padding, length): FFmpeg
    /// trims the delay from it, and the length ends the song where the music does.
    @Test func anITunesFilesLengthComesFromItsITunSMPBTag() throws {
        let dir = TempDir("boomic-ffmpeg")
        let frames = try ToneTracks.make(in: dir.path).last!
        let file = dir.path + "/itunes.m4a"
        try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", dir.path + "/tone.wav", "-c:a", "aac", "-b:a", "160k",
                        "-use_editlist", "0", file])
        let untagged = try AudioFixtures.decodeAll(try Self.open(file)).count / 2
        #expect(untagged >= frames + 1024, "without an edit list or the tag, the encoder's delay is played")
        let packets = (frames + 1024 + 1023) / 1024
        let smpb = String(format: " 00000000 00000400 %08X %016X 00000000 00000000", packets * 1024 - 1024 - frames, frames)
        try toolOutput(["/usr/bin/python3", "-c", """
            import sys
            from mutagen.mp4 import MP4, MP4FreeForm
            f = MP4(sys.argv[1]); f['----:com.apple.iTunes:iTunSMPB'] = [MP4FreeForm(sys.argv[2].encode())]; f.save()
            """, file, smpb])
        let d = try Self.open(file)
        #expect(d.totalFrames == frames)
        var decoded: [Float] = []
        while try d.read(into: &decoded, maxFrames: 4096) > 0 {}
        #expect(decoded.count == 2 * frames, "\(decoded.count / 2 - frames) frames more than the tag says")
        let reference = Self.floats(try toolOutput(["ffmpeg", "-v", "error", "-i", file, "-f", "f32le", "-"]))
        let same = decoded == Array(reference.prefix(2 * frames))
        #expect(same, "not FFmpeg's decoding (which drops the delay the tag names)")
    }

    /// Musepack through FFmpeg, trimmed as the stream header says (the filter delay, the last
    /// frame's padding): the same length as `mpcdec` gives and the original had, tracks that
    /// join to the original's length, and samples within 2 LSB of `mpcdec`'s (FFmpeg's decoder
    /// is fixed-point, libmpcdec's float, and they round apart).
    @Test func musepackIsTrimmedLikeMpcdec() throws {
        let dir = TempDir("boomic-ffmpeg")
        let bounds = try ToneTracks.make(in: dir.path)
        var joined: [Int32] = []
        var reference: [Int32] = []
        for i in 0..<ToneTracks.cuts.count {
            let file = dir.path + "/t\(i).mpc"
            try toolOutput(["mpcenc", "--silent", "--overwrite", dir.path + "/t\(i).wav", file])
            try toolOutput(["mpcdec", file, dir.path + "/ref\(i).wav"])
            let d = try Self.open(file)
            #expect(d.totalFrames == bounds[i + 1] - bounds[i])
            joined += try AudioFixtures.decodeAll(d)
            reference += try Self.samples(ofWAV: dir.path + "/ref\(i).wav", bits: 16)
        }
        #expect(joined.count == 2 * bounds.last!, "\(joined.count / 2 - bounds.last!) frames of gap (+) or overlap (-)")
        #expect(joined.count == reference.count)
        let worst = zip(joined, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 2, "up to \(worst) LSB from mpcdec")

        let file = dir.path + "/t1.mpc"
        let whole = try AudioFixtures.decodeAll(try Self.open(file))
        let d = try Self.open(file)
        try d.seek(toFrame: 12_345)
        let tail = try AudioFixtures.decodeAll(d)
        let same = tail == Array(whole[(2 * 12_345)...])
        #expect(same, "a seek does not land on the sample asked")
    }

    @Test(arguments: ["alac", "wavpack", "aac"])
    func seekLandsOnTheSampleAsked(_ codec: String) throws {
        let dir = TempDir("boomic-ffmpeg")
        try ToneTracks.make(in: dir.path)
        let wav = dir.path + "/tone.wav"
        let file = dir.path + (codec == "wavpack" ? "/seek.wv" : "/seek.m4a")
        switch codec {
        case "wavpack": try toolOutput(["wavpack", "-q", "-y", wav, "-o", file])
        default: try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", codec, file])
        }
        let whole = try AudioFixtures.decodeAll(try Self.open(file))
        for target in [1, 4_095, 51_234, whole.count / 2 - 1] {
            let d = try Self.open(file)
            try d.seek(toFrame: target)
            let tail = try AudioFixtures.decodeAll(d)
            let expected = Array(whole[(target * 2)...])
            #expect(tail.count == expected.count, "frames after a seek to \(target)")
            if codec == "aac" {
                // AAC's noise substitution draws from a generator that a decode from the start
                // has run further: the position is exact, the noise is not (measured 57–86 dB;
                // a seek one sample off measures under 20 dB).
                #expect(AudioFixtures.snr(tail, expected) > 40, "SNR after a seek to \(target): \(AudioFixtures.snr(tail, expected)) dB")
            } else {
                let same = tail == expected
                #expect(same, "samples after a seek to \(target) differ from a decode from the start")
            }
        }
        let past = try Self.open(file)
        try past.seek(toFrame: whole.count)
        #expect(try AudioFixtures.decodeAll(past).isEmpty, "a seek past the end reads nothing")
    }

    @Test(arguments: ["wv", "m4a"])
    func aDamagedStretchIsSilenceOfItsLength(_ ext: String) throws {
        let dir = TempDir("boomic-ffmpeg")
        try ToneTracks.make(in: dir.path)
        let wav = dir.path + "/tone.wav", file = dir.path + "/tone." + ext
        if ext == "wv" {
            try toolOutput(["wavpack", "-q", "-y", wav, "-o", file])
        } else {
            try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "alac", file])
        }
        let clean = try AudioFixtures.decodeAll(try Self.open(file))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        for i in (bytes.count / 2)..<(bytes.count / 2 + 400) { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let d = try Self.open(file)
        let damaged = try AudioFixtures.decodeAll(d)
        #expect(damaged.count == clean.count, "the damage changed the length by \(damaged.count - clean.count) samples")
        #expect(d.warnings.contains { $0.contains("lost to damage") }, "\(d.warnings)")
        let differing = damaged.indices.filter { $0 < clean.count && damaged[$0] != clean[$0] }
        let firstDifference = differing.first ?? damaged.count
        let lastDifference = damaged.count - 1 - (differing.last ?? 0)
        #expect(firstDifference > clean.count / 4 && lastDifference > clean.count / 8,
                "only the damaged stretch may differ: \(firstDifference) from the start, \(lastDifference) from the end")
    }

    @Test func aFileThatIsNoAudioIsOneLine() throws {
        let dir = TempDir("boomic-ffmpeg")
        let file = dir.path + "/junk.m4a"
        var rng = SplitMix64(seed: 7)
        try Data((0..<30_000).map { _ in UInt8.random(in: 0...255, using: &rng) }).write(to: URL(fileURLWithPath: file))
        let error = #expect(throws: AudioError.self) { try Decoders.open(file) }
        #expect(error?.description == file + ": cannot open (Invalid data found when processing input)")
        #expect(throws: AudioError.self) { try Decoders.open(dir.path + "/missing.wv") }
    }

    /// Files cut short or spoiled at random places (seeded): each opens with an error or
    /// decodes to an end, and a decoder that dies says so; the player's side never traps.
    @Test func spoiledFilesEndInAnErrorOrAnEndNeverACrash() throws {
        let dir = TempDir("boomic-ffmpeg")
        let wav = dir.path + "/tone.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", wav, "synth", "1", "sine", "300-3000"])
        var files: [String] = []
        for (ext, args) in [("m4a", ["-c:a", "alac"]), ("aac.m4a", ["-c:a", "aac"])] {
            try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", wav] + args + [dir.path + "/clean." + ext])
            files.append(dir.path + "/clean." + ext)
        }
        try toolOutput(["wavpack", "-q", "-y", wav, "-o", dir.path + "/clean.wv"])
        try toolOutput(["mpcenc", "--silent", "--overwrite", wav, dir.path + "/clean.mpc"])
        files += [dir.path + "/clean.wv", dir.path + "/clean.mpc"]
        var checked = 0
        for seed in Seeds.list(6, from: 0xFF_0000) {
            var rng = SplitMix64(seed: seed)
            for clean in files {
                var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clean)))
                if Bool.random(using: &rng) {
                    bytes.removeLast(Int.random(in: 1..<bytes.count, using: &rng))
                } else {
                    for _ in 0..<Int.random(in: 1...50, using: &rng) {
                        bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    }
                }
                let spoiled = dir.path + "/spoiled." + (clean as NSString).pathExtension
                try Data(bytes).write(to: URL(fileURLWithPath: spoiled))
                do {
                    let d = try Self.open(spoiled)
                    let n = try AudioFixtures.decodeAll(d).count
                    #expect(n % d.format.channels == 0, "\(Seeds.replay(seed)): \(clean) gave part of a frame")
                } catch let error as AudioError {
                    #expect(!error.reason.isEmpty && !error.reason.contains("\n"), "\(Seeds.replay(seed)): \(error)")
                }
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(24))
    }

    @Test func withoutTheDecoderProgramTheFormatIsNamed() throws {
        let dir = TempDir("boomic-ffmpeg")
        let file = dir.path + "/a.m4a"
        try Data([0]).write(to: URL(fileURLWithPath: file))
        let error = #expect(throws: AudioError.self) { try FFmpegDecoder(path: file, program: nil) }
        #expect(error?.reason.hasPrefix("no decoder for .m4a files: boomic-ffmpeg") == true)
    }

    /// A decoder that crashes mid-song (a stand-in program: a header, some samples, a signal)
    /// ends the song with what came and a warning.
    @Test func aDecoderThatCrashesEndsTheSongWithAWarning() throws {
        let dir = TempDir("boomic-ffmpeg")
        let header = "rate=8000 channels=1 bits=16 float=0 frames=100 codec=fake"
        let stream = dir.path + "/stream"
        try Data(DecoderPipe.packet(.header, text: header) + DecoderPipe.packet(.samples, [UInt8](repeating: 0, count: 40)))
            .write(to: URL(fileURLWithPath: stream))
        let script = dir.path + "/crashing"
        try "#!/bin/sh\ncat '\(stream)'\nkill -SEGV $$\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let file = dir.path + "/a.m4a"
        try Data([0]).write(to: URL(fileURLWithPath: file))
        // A child that another test forks while the script is being written holds it open
        // for writing until that child execs: starting it then fails with "Text file busy"
        // (ETXTBSY), a race of the test run, not of the decoder. Tried again a moment later.
        var started: FFmpegDecoder?
        for attempt in 1...20 {
            do {
                started = try FFmpegDecoder(path: file, program: script)
                break
            } catch {
                guard error.reason.contains("Text file busy"), attempt < 20 else { throw error }
                usleep(50_000)
            }
        }
        let d = try #require(started)
        #expect(d.format == PCMFormat(sampleRate: 8_000, channels: 1, bitsPerSample: 16))
        #expect(try AudioFixtures.decodeAll(d) == [Int32](repeating: 0, count: 10))
        #expect(d.warnings == ["boomic-ffmpeg stopped mid-song (signal 11); the rest is not played"])
    }

    /// What the name promises is tried first; a file that is not it goes on to the next decoder.
    @Test func aFileIsDecodedByWhatItHoldsNotOnlyByItsName() throws {
        let dir = TempDir("boomic-ffmpeg")
        try ToneTracks.make(in: dir.path)
        let wav = dir.path + "/tone.wav"
        try toolOutput(["opusenc", "--quiet", wav, dir.path + "/opus.ogg"])
        try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "adpcm_ms", dir.path + "/adpcm.wav"])
        #expect(try Decoders.open(dir.path + "/opus.ogg") is OpusDecoder)
        let adpcm = try Decoders.open(dir.path + "/adpcm.wav")
        #expect((adpcm as? FFmpegDecoder)?.codec == "adpcm_ms")
        #expect(try AudioFixtures.decodeAll(adpcm).count > 100_000)
    }

    // MARK: Helpers

    /// This suite's files through FFmpeg, even a WavPack one, which `Decoders.open` gives
    /// libwavpack.
    static func open(_ path: String) throws -> any AudioDecoder { try FFmpegDecoder(path: path) }

    /// A WAV's samples as sox reads them, as the integers a decoder of `bits` bits gives.
    static func samples(ofWAV path: String, bits: Int) throws -> [Int32] {
        let raw = try toolOutput(["sox", path, "-t", "s32", "-"])
        return stride(from: 0, to: raw.count, by: 4).map { i in
            Int32(bitPattern: UInt32(raw[i]) | UInt32(raw[i + 1]) << 8 | UInt32(raw[i + 2]) << 16 | UInt32(raw[i + 3]) << 24) >> Int32(32 - bits)
        }
    }

    static func floats(_ bytes: [UInt8]) -> [Float] {
        stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            Float(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
        }
    }
}
