import BoomicAudio
import BoomicCore
import BoomicPlayback
import BoomicTestSupport
import Foundation
import Testing

/// An MP3's 16-bit samples travel the ring as libmpg123 gives them and the output thread widens
/// them: what reaches the sink is still what `mpg123 -s` writes, track after track, with no gap.
@Suite struct EngineMP3Tests {
    @Test func mp3TracksReachTheSinkAsTheReferenceDecoderWritesThem() async throws {
        let album = try ToneAlbum(seconds: 3)
        var random = SplitMix64(seed: 11)
        var songs: [PlayableSong] = []
        var reference: [UInt8] = []
        for i in album.songs.indices {
            let wav = album.dir.path + "/t\(i).wav", mp3 = album.dir.path + "/t\(i).mp3"
            try toolOutput(["lame", "--quiet", "-b", "192", wav, mp3])
            reference += try toolOutput(["mpg123", "-q", "-s", mp3])
            songs.append(PlayableSong(id: SongID(random.uuid()), path: mp3))
        }
        let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
        let queue = PlayQueue(seed: 1).applying(.add(songs.map(\.id), at: .end)).applying(.play(nil))
        let tape = RecordingSink.Tape()
        let engine = PlaybackEngine(queue: queue, sink: RecordingSink(tape: tape), songs: { byID[$0] })
        let seen = await events(of: engine)
        engine.quit()
        var played: [UInt8] = []
        WAVEncoding.append(tape.samples.withLock { $0 }, bitsPerSample: 16, to: &played)
        #expect(played.count == reference.count, "\(played.count / 4 - reference.count / 4) frames more (+) or fewer (-)")
        // Compared as one Boolean: a failed `==` of two arrays this long would print both.
        let difference = zip(played, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(difference == nil, "first difference at byte \(difference ?? -1)")
        let ends = seen.compactMap { if case let .ended(e) = $0 { e } else { nil } }
        #expect(ends.map(\.reason) == [.finished, .finished, .finished])
    }
}
