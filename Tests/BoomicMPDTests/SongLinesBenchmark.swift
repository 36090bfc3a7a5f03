import BoomicCore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicMPD

/// Times MPD's song lines (`currentsong`, `playlistinfo`, `listallinfo`) for 50,000 songs with
/// the tags an imported library has, and the values `list` and `count group` go through.
/// Prints only, and only when asked:
///
///     BOOMIC_BENCH=1 swift test --filter SongLinesBenchmark
@Suite struct SongLinesBenchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BOOMIC_BENCH"] != nil)) func fiftyThousandSongs() {
        var rng = SplitMix64(seed: 78)
        let songs = (0..<50_000).map { i in
            var s = Song(id: SongID(rng.uuid()), path: "/music/\(i / 10)/\(i % 10) Song \(i).flac")
            s.mtime = 1_700_000_000_000_000_000
            s.title = "Song \(i)"; s.artists = ["Artist \(i / 400)"]; s.album = "Album \(i / 10)"
            s.albumartist = s.artists.first; s.track = i % 10 + 1; s.disc = 1; s.year = 1959; s.genre = "Jazz; Bebop"
            s.mbTrackID = "0e5a1a7c-0000-4000-8000-\(String(i, radix: 16))"; s.mbAlbumID = "album-\(i / 10)"
            s.duration = 321.5; s.samplerate = 44100; s.bitdepth = 16; s.channels = 2
            if i % 7 == 0 { s.work = "Work \(i / 70)"; s.movementNumber = i % 7 + 1 }
            return s
        }
        var best = Double.infinity, bytes = 0
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            var r = MPDResponse()
            for s in songs { r.add(song: s, uri: s.path, tags: .standard) }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            bytes = r.count
        }
        var values = Double.infinity, n = 0
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for s in songs { for tag in MPDTag.allCases { MPDResponse.forEachValue(of: tag, in: s) { n &+= $0.utf8.count } } }
            values = min(values, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print(String(format: "song lines benchmark: 50,000 songs, %.1f MB: lines %.1f ms, every tag's values %.1f ms [%d]",
                     Double(bytes) / 1e6, best, values, n % 10))
    }
}
