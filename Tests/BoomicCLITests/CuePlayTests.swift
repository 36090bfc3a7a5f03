import BoomicTestSupport
import Foundation
import Testing

/// A CUE image's tracks play sample-exact (issue 34, item 4): the album joined is the image as
/// `flac -d` decodes it, byte for byte (track 1 from sample 0, each pregap at the end of the
/// track before), one track is exactly its samples, and plays count per track.
@Suite struct CuePlayTests {
    /// The image's PCM as `flac -d` gives it.
    static func reference(_ box: Sandbox, _ image: String) throws -> [UInt8] {
        let wav = box.root + "/reference.wav"
        try toolOutput(["flac", "-s", "-d", "-f", "-o", wav, image])
        return try ToneTracks.wavData(ofFile: wav)
    }

    @Test func theAlbumPlaysAsTheImageAndOneTrackAsItsSamples() throws {
        let box = try Sandbox(samples: false)
        let image = try CueImage.make(in: box.music + "/Album")
        try box.succeed("import", box.music)
        let pcm = try Self.reference(box, image)
        #expect(pcm.count == CueImage.totalSamples * 4)

        let album = box.root + "/album.wav"
        let run = try box.succeed("play", "--album", "title:Café", "--output", "wav:" + album)
        #expect(run.lines.map { $0.hasPrefix("▶") } == [true, true, true], "\(run)")
        let played = try ToneTracks.wavData(ofFile: album)
        #expect(played.count == pcm.count, "\((played.count - pcm.count) / 4) frames of gap (+) or overlap (-)")
        #expect(played == pcm, "the tracks joined differ from the image")
        #expect(try box.songs().map(\.playcount) == [1, 1, 1])

        let one = box.root + "/one.wav"
        try box.succeed("play", "title:Naïve", "--output", "wav:" + one)
        let second = Array(pcm[(CueImage.starts[1] * 4)..<(CueImage.starts[2] * 4)])
        let heard = try ToneTracks.wavData(ofFile: one)
        #expect(heard.count == second.count, "\((heard.count - second.count) / 4) frames too many (+) or too few (-)")
        #expect(heard == second, "track 2 differs from its part of the image")
        #expect(try box.song("title:Naïve").playcount == 2)
        #expect(try box.song("title:Été").playcount == 1)
    }
}
