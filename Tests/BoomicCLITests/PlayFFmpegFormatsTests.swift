import BoomicTestSupport
import Foundation
import Testing

/// `boomic play` on formats only FFmpeg decodes, through `boomic-ffmpeg` beside `boomic`: an ALAC
/// album is heard bit for bit and gaplessly, like a FLAC one; without the decoder program such a
/// song is skipped with one line and playback goes on.
@Suite struct PlayFFmpegFormatsTests {
    /// An album of three ALAC tracks (in M4A, tagged by ffmpeg) cut from one tone, and a FLAC
    /// track after them; returns the tone's PCM.
    static func alacAlbum(_ box: Sandbox) throws -> [UInt8] {
        let dir = box.root + "/tone"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try ToneTracks.make(in: dir)
        try FileManager.default.createDirectory(atPath: box.root + "/music", withIntermediateDirectories: true)
        for i in ToneTracks.cuts.indices {
            try toolOutput(["ffmpeg", "-v", "error", "-y", "-i", dir + "/t\(i).wav", "-c:a", "alac",
                            "-metadata", "artist=Tone Band", "-metadata", "album=Lossless Tone",
                            "-metadata", "title=Part \(i + 1)", "-metadata", "track=\(i + 1)",
                            box.root + "/music/0\(i + 1) Part \(i + 1).m4a"])
        }
        try toolOutput(["flac", "-s", "-f", "-o", box.root + "/music/04 Coda.flac", dir + "/t0.wav",
                        "-T", "ARTIST=Tone Band", "-T", "ALBUM=Lossless Tone", "-T", "TITLE=Coda", "-T", "TRACKNUMBER=4"])
        try box.succeed("import", box.root + "/music")
        return try ToneTracks.wavData(ofFile: dir + "/tone.wav") + (try ToneTracks.wavData(ofFile: dir + "/t0.wav"))
    }

    @Test func anALACAlbumPlaysBitExactAndGapless() throws {
        let box = try Sandbox(samples: false)
        let expected = try Self.alacAlbum(box)
        let out = box.root + "/out.wav"
        let run = try box.succeed("play", "--album", "coda", "--output", "wav:" + out)
        #expect(run.lines == ["▶ Tone Band - Lossless Tone - Part 1", "▶ Tone Band - Lossless Tone - Part 2",
                              "▶ Tone Band - Lossless Tone - Part 3", "▶ Tone Band - Lossless Tone - Coda"])
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let played = try ToneTracks.wavData(ofFile: out)
        #expect(played.count == expected.count, "\((played.count - expected.count) / 4) frames of gap (+) or overlap (-)")
        let same = played == expected
        #expect(same, "the wav: file differs from the album's samples")
    }

    @Test func withoutTheDecoderProgramTheSongIsSkippedInOneLine() throws {
        let box = try Sandbox(samples: false)
        _ = try Self.alacAlbum(box)
        let out = box.root + "/out.wav"
        let run = try box.boomic(["play", "--album", "coda", "--output", "wav:" + out],
                                 environment: ["BOOMIC_FFMPEG": box.root + "/no-such-program"])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.last == "▶ Tone Band - Lossless Tone - Coda", "\(run)")
        let complaints = run.errorLines.filter { $0.contains(".m4a") }
        #expect(complaints.count == 3, "\(run.stderr)")
        #expect(complaints.allSatisfy { $0.contains("boomic-ffmpeg") }, "\(run.stderr)")
        #expect(try ToneTracks.wavData(ofFile: out) == (try ToneTracks.wavData(ofFile: box.root + "/tone/t0.wav")))
    }
}
