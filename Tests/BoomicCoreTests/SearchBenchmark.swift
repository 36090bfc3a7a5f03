import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Times the search on a synthetic 50,000-song library. Tests never time anything (DESIGN §7),
/// so this prints its times (checking only that the limit holds), and only when asked:
///
///     BOOMIC_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter SearchBenchmark
@Suite struct SearchBenchmark {
    static let isEnabled = ProcessInfo.processInfo.environment["BOOMIC_BENCH"] != nil

    @Test(.enabled(if: isEnabled)) func fiftyThousandSongs() throws {
        let basis = SearchLibraries.synthetic(songs: 50_000, seed: 7)
        print("search benchmark: \(basis.songs.count) songs")
        // The floor: reading the fields the search reads (one byte of each, so that each
        // string's bytes are fetched from memory as the search must), and nothing else.
        var floor = Double.infinity, bytes = 0
        for _ in 0..<7 {
            let start = DispatchTime.now().uptimeNanoseconds
            for s in basis.songs.values {
                func byte(_ x: String?) -> Int { Int(x?.utf8.last ?? 0) }
                bytes &+= byte(s.title) &+ byte(s.album) &+ byte(s.composer) &+ byte(s.albumartist)
                for a in s.artists { bytes &+= byte(a) }
            }
            floor = min(floor, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print(String(format: "  reading the fields %7.2f ms (checksum %d)", floor, bytes / 7))
        let typical = ["miles", "bjork", "kind of blue", "beyonce lemonade", "zzzq"]
        let texts = ProcessInfo.processInfo.environment["BOOMIC_BENCH"] == "typical" ? typical : typical + ["love", "a", "é"]
        for text in texts {
            var best = Double.infinity, count = 0
            for _ in 0..<7 {
                let start = DispatchTime.now().uptimeNanoseconds
                count = try basis.search(text, limit: 20).count
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            let all = try basis.search(text).count
            #expect(count == min(20, all), "'\(text)': the limit keeps the best 20 of \(all)")
            print(String(format: "  %-18@ %7.2f ms  (%d of %d hits)", "'\(text)'" as NSString, best, count, all))
        }
    }
}

/// Libraries for the search tests.
enum SearchLibraries {
    /// Words real titles are made of, a tenth with accents or another script, so the cost of
    /// folding non-ASCII text is measured too.
    static let vocabulary = ["love", "blue", "night", "song", "the", "of", "in", "my", "heart", "time", "dream",
                             "rain", "fire", "home", "road", "light", "dance", "moon", "river", "gold", "summer",
                             "city", "baby", "world", "sun", "star", "girl", "boy", "train", "green", "stone",
                             "Café", "Jóga", "naïve", "Über", "señor", "Ærø", "déjà", "vu", "Don’t", "rock'n'roll",
                             "夜", "ночь", "AC/DC", "live", "remix", "edit", "part", "II", "(Remastered)"]
    static let names = ["Miles Davis", "John Coltrane", "Björk", "Sigur Rós", "Beyoncé", "Nina Simone",
                        "坂本龍一", "AC/DC", "Motörhead", "Queen", "The Beatles", "Daft Punk"]

    static func phrase(_ rng: inout SplitMix64, words: ClosedRange<Int>) -> String {
        (0..<Int.random(in: words, using: &rng)).map { _ in rng.pick(vocabulary) }.joined(separator: " ")
    }

    /// About ten songs an album, four albums an artist.
    static func synthetic(songs count: Int, seed: UInt64) -> DataBasis {
        var rng = SplitMix64(seed: seed)
        let artists = (0..<max(1, count / 40)).map { i in
            i < names.count ? names[i] : phrase(&rng, words: 1...2).capitalized + " \(i)"
        }
        var albums: [(title: String, artist: String)] = []
        for i in 0..<max(1, count / 10) {
            albums.append((i == 0 ? "Kind of Blue" : i == 1 ? "Lemonade" : phrase(&rng, words: 1...4).capitalized,
                           artists[i % artists.count]))
        }
        var songs: [Song] = []
        songs.reserveCapacity(count)
        for i in 0..<count {
            let album = albums[i % albums.count]
            var s = Song(id: SongID(UUID(uuid: uuidBytes(UInt64(i), seed))), path: "/music/\(i).flac")
            s.title = phrase(&rng, words: 1...5).capitalized
            s.artists = rng.chance(0.1) ? [album.artist, rng.pick(artists)] : [album.artist]
            s.album = album.title
            s.track = i / albums.count + 1
            if rng.chance(0.2) { s.composer = rng.pick(artists) }
            songs.append(s)
        }
        return DataBasis(songs: songs)
    }

    private static func uuidBytes(_ n: UInt64, _ seed: UInt64) -> uuid_t {
        let a = withUnsafeBytes(of: n.bigEndian) { Array($0) }, b = withUnsafeBytes(of: seed.bigEndian) { Array($0) }
        return (b[0], b[1], b[2], b[3], b[4], b[5], 0x40, b[7], 0x80, a[1], a[2], a[3], a[4], a[5], a[6], a[7])
    }
}
