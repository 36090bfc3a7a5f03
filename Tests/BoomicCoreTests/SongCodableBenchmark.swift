import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Times the log's JSON form of 50,000 imported songs: an import encodes every song once (one
/// add row each) and opening a library without a checkpoint decodes them all. Prints its times
/// and checks nothing but the round trip, and only when asked:
///
///     BOOMIC_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter SongCodableBenchmark
@Suite struct SongCodableBenchmark {
    @Test(.enabled(if: SearchBenchmark.isEnabled)) func fiftyThousandAddRows() throws {
        var rng = SplitMix64(seed: 11)
        let adds = SearchLibraries.synthetic(songs: 50_000, seed: 11).songs.values.map { s -> Assertion in
            var s = s
            // What an import of tagged files records beyond the search library's fields.
            s.size = Int.random(in: 1_000_000...90_000_000, using: &rng)
            s.mtime = 1_700_000_000_000_000_000 + Int.random(in: 0...1_000_000_000_000, using: &rng)
            s.fingerprint = String(UInt64.random(in: 0...UInt64.max, using: &rng), radix: 16)
            s.added = 1_795_392_887.1
            s.albumartist = s.artists.first
            s.tracktotal = 12; s.disc = 1; s.disctotal = 1; s.year = 1959; s.genre = "Jazz"
            s.replaygainTrackGain = -6.5; s.replaygainTrackPeak = 0.98
            s.replaygainAlbumGain = -7.25; s.replaygainAlbumPeak = 0.99
            s.mbTrackID = UUID().uuidString.lowercased(); s.mbAlbumID = UUID().uuidString.lowercased()
            s.mbArtistID = UUID().uuidString.lowercased()
            s.duration = Double.random(in: 60...900, using: &rng)
            s.samplerate = 44100; s.bitdepth = 16; s.channels = 2; s.bitrate = 900; s.format = "FLAC"
            if rng.chance(0.1) { s.fileValues = ["genre=\"Bebop\""] }
            if rng.chance(0.1) { s.userFields = ["mood=happy"] }
            return .addSong(s)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let decoder = JSONDecoder()
        var encodeBest = Double.infinity, decodeBest = Double.infinity, bytes = 0
        var back: [Assertion] = []
        for _ in 0..<3 {
            var start = DispatchTime.now().uptimeNanoseconds
            let data = try encoder.encode(adds)
            encodeBest = min(encodeBest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            bytes = data.count
            start = DispatchTime.now().uptimeNanoseconds
            back = try decoder.decode([Assertion].self, from: data)
            decodeBest = min(decodeBest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        #expect(back == adds)
        print(String(format: "song codable benchmark: %d add rows, %.1f MB: encode %.0f ms, decode %.0f ms",
                     adds.count, Double(bytes) / 1e6, encodeBest, decodeBest))
    }
}
