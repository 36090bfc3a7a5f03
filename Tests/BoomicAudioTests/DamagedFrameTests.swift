import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// A damaged frame in the middle of a file becomes silence of its length, with a warning: the
/// song keeps its length, so positions, bookmarks and the gapless join after it stay true, and
/// what is around the damage decodes as before.
@Suite struct DamagedFrameTests {
    /// The encoder, whether a frame (or page) starts at an offset of its output, and which
    /// bytes from such a start to spoil: the header itself for FLAC and MP3 (the decoder loses
    /// sync and skips the frame), a page's packets for Ogg, past its segment table (its
    /// checksum fails, a hole follows).
    struct Codec: CustomTestStringConvertible, Sendable {
        let name: String
        let ext: String
        let encode: @Sendable (_ wav: String, _ out: String) -> [String]
        let startsFrame: @Sendable (_ bytes: [UInt8], _ at: Int) -> Bool
        let spoil: Range<Int>
        var testDescription: String { name }
    }

    static let codecs = [
        Codec(name: "flac", ext: "flac", encode: { ["flac", "-s", "-f", "-o", $1, $0] },
              startsFrame: { b, i in b[i] == 0xFF && b[i + 1] == 0xF8 }, spoil: 0..<4),
        Codec(name: "mp3 CBR", ext: "mp3", encode: { ["lame", "--quiet", "-b", "128", $0, $1] }, startsFrame: isMP3Frame, spoil: 0..<4),
        Codec(name: "mp3 VBR", ext: "mp3", encode: { ["lame", "--quiet", "-V", "2", $0, $1] }, startsFrame: isMP3Frame, spoil: 0..<4),
        Codec(name: "ogg", ext: "ogg", encode: { ["oggenc", "-Q", "-o", $1, $0] }, startsFrame: isPage, spoil: 100..<140),
        Codec(name: "opus", ext: "opus", encode: { ["opusenc", "--quiet", "--max-delay", "250", $0, $1] }, startsFrame: isPage, spoil: 100..<140),
    ]

    static let isPage: @Sendable ([UInt8], Int) -> Bool = { b, i in b[i..<(i + 4)].elementsEqual("OggS".utf8) }

    /// An MPEG-1 layer III header at 44.1 kHz without CRC, and another where its length says.
    static let isMP3Frame: @Sendable ([UInt8], Int) -> Bool = { b, i in
        let kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0]
        let length = { (j: Int) -> Int? in
            guard j + 3 < b.count, b[j] == 0xFF, b[j + 1] == 0xFB, b[j + 2] & 0x0C == 0 else { return nil }
            let rate = kbps[Int(b[j + 2] >> 4)]
            return rate == 0 ? nil : 144_000 * rate / 44_100 + Int(b[j + 2] >> 1 & 1)
        }
        guard let n = length(i) else { return false }
        return length(i + n) != nil
    }

    @Test(arguments: codecs)
    func aDamagedFrameBecomesSilenceOfItsLength(codec: Codec) throws {
        let dir = TempDir("boomic-damage")
        let wav = dir.path + "/tone.wav", good = dir.path + "/good." + codec.ext, bad = dir.path + "/bad." + codec.ext
        // Noise keeps the bit rate, and so the pages, as small as music's (a pure tone packs a
        // second into one Ogg page). `sox -R`: the same noise every run.
        let tone = dir.path + "/sine.wav", noise = dir.path + "/noise.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", tone,
                        "synth", "4", "sine", "300-3000", "sine", "441", "gain", "-3"])
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", noise, "synth", "4", "pinknoise", "gain", "-20"])
        try toolOutput(["sox", "-m", tone, noise, wav])
        try toolOutput(codec.encode(wav, good))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        // The first frame (page) start past a third of the file: not the last page, whose
        // granule position the libraries need to end the stream.
        let at = try #require((bytes.count / 3..<bytes.count - 8).first { codec.startsFrame(bytes, $0) })
        for i in codec.spoil { bytes[at + i] ^= 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: bad))

        let (clean, _) = try Self.decode(good)
        let (damaged, warnings) = try Self.decode(bad)
        let channels = 2
        #expect(damaged.count == clean.count,
                "\(codec.name): \(clean.count / channels) frames clean, \(damaged.count / channels) with a damaged frame")
        #expect(!warnings.isEmpty, "\(codec.name): no warning for the damaged frame")
        // The damage is one frame or page (an Ogg page holds 0.3–0.4 s here); well before and
        // well after it the samples are the clean ones, so nothing moved. (A lossy decoder's
        // state takes a while to settle after a hole, so for those "the same" is within -42 dB
        // of full scale; a sample out of place would differ by far more.)
        let common = min(clean.count, damaged.count)
        let tolerance: Int32 = codec.ext == "flac" ? 0 : 256
        let differs = { (i: Int) in abs(clean[i] - damaged[i]) > tolerance }
        let firstDifference = (0..<common).first(where: differs) ?? common
        let lastDifference = (0..<common).last(where: differs) ?? 0
        #expect(firstDifference > clean.count / 4, "\(codec.name): differs from frame \(firstDifference / channels)")
        #expect(lastDifference - firstDifference < 44_100 / 2 * channels,
                "\(codec.name): differs from frame \(firstDifference / channels) to \(lastDifference / channels)")
    }

    static func decode(_ path: String) throws -> (samples: [Int32], warnings: [String]) {
        let d = try Decoders.open(path)
        var samples: [Int32] = []
        while try d.read(into: &samples, maxFrames: 4096) > 0 {}
        return (samples, d.warnings)
    }
}
