import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// Tracks cut from one continuous recording at odd sample offsets (not on any frame boundary)
/// join with zero samples of gap or overlap when decoded back to back into a `wav:` sink: FLAC
/// gives back the original exactly; MP3 gives each track's reference decoding, trimmed to the
/// track's own length, so the joined length is the original's.
@Suite struct GaplessJoinTests {
    static let cuts = [0, 37_003, 91_117]

    /// The continuous tone and its three tracks as WAV, in `dir`; returns the tone's frame count.
    static func makeTracks(in dir: String) throws -> Int {
        let tone = dir + "/tone.wav"
        try FLACDecoderTests.run("/usr/bin/sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", tone,
                                                  "synth", "3", "sine", "300-3000", "sine", "441", "gain", "-3"])
        let total = try frames(of: tone)
        let bounds = cuts + [total]
        for i in 0..<cuts.count {
            try FLACDecoderTests.run("/usr/bin/sox", [tone, dir + "/t\(i).wav", "trim", "\(bounds[i])s", "\(bounds[i + 1] - bounds[i])s"])
        }
        return total
    }

    static func frames(of wav: String) throws -> Int {
        Int(String(decoding: try FLACDecoderTests.run("/usr/bin/soxi", ["-s", wav]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Decodes the files one after the other into a `wav:` sink, as the player hands over.
    static func render(_ paths: [String], to out: String) throws {
        let first = try Decoders.open(paths[0])
        let sink = try WAVFileSink(path: out, format: first.format)
        var block: [Int32] = []
        for path in paths {
            let d = path == paths[0] ? first : try Decoders.open(path)
            #expect(d.format == sink.format)
            while true {
                block.removeAll(keepingCapacity: true)
                guard try d.read(into: &block, maxFrames: 4096) > 0 else { break }
                try sink.write(block)
            }
        }
        try sink.finish()
    }

    @Test func flacTracksJoinIntoTheOriginal() throws {
        let dir = TempDir("boomic-gapless")
        let total = try Self.makeTracks(in: dir.path)
        var tracks: [String] = []
        for i in 0..<Self.cuts.count {
            try FLACDecoderTests.run("/usr/bin/flac", ["-s", "-f", "-o", dir.path + "/t\(i).flac", dir.path + "/t\(i).wav"])
            tracks.append(dir.path + "/t\(i).flac")
        }
        let out = dir.path + "/out.wav"
        try Self.render(tracks, to: out)
        #expect(try Self.frames(of: out) == total, "soxi reads the sink's header")
        let original = try FLACDecoderTests.wavData([UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path + "/tone.wav"))))
        let joined = try FLACDecoderTests.wavData([UInt8](Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(joined.count == original.count, "\(joined.count - original.count) bytes of gap (+) or overlap (-)")
        #expect(joined == original)
    }

    @Test func mp3TracksJoinWithoutGap() throws {
        let dir = TempDir("boomic-gapless")
        let total = try Self.makeTracks(in: dir.path)
        var tracks: [String] = []
        var reference: [UInt8] = []
        for i in 0..<Self.cuts.count {
            let mp3 = dir.path + "/t\(i).mp3"
            try FLACDecoderTests.run("/usr/bin/lame", ["--quiet", "-b", "256", dir.path + "/t\(i).wav", mp3])
            tracks.append(mp3)
            reference += try FLACDecoderTests.run("/usr/bin/mpg123", ["-q", "-s", mp3])
        }
        let out = dir.path + "/out.wav"
        try Self.render(tracks, to: out)
        #expect(try Self.frames(of: out) == total, "the joined tracks are not the original's length")
        #expect(try FLACDecoderTests.wavData([UInt8](Data(contentsOf: URL(fileURLWithPath: out)))) == reference)
    }
}
