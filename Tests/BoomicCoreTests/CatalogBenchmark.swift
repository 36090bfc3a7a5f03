import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Times building a catalog and answering each list from it on a synthetic 50,000-song library.
/// Tests never time anything (DESIGN §7), so this only prints, and only when asked:
///
///     BOOMIC_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter CatalogBenchmark
@Suite struct CatalogBenchmark {
    static let isEnabled = ProcessInfo.processInfo.environment["BOOMIC_BENCH"] != nil

    /// The search benchmark's library, with what the lists sort by: years, genres, plays,
    /// ratings, favourites, dates added, covers.
    static func library(songs count: Int) -> DataBasis {
        var rng = SplitMix64(seed: 11)
        let genres = ["Jazz", "Rock", "Pop", "Electronic", "Classical", "Hip-Hop", "Folk", "Jazz; Fusion", "Música"]
        return DataBasis(songs: SearchLibraries.synthetic(songs: count, seed: 7).songs.values.map { s in
            var s = s
            s.year = Int.random(in: 1950...2025, using: &rng)
            s.genre = rng.pick(genres)
            s.duration = Double(Int.random(in: 60...600, using: &rng))
            s.added = Double(Int.random(in: 0...1_000_000, using: &rng))
            if rng.chance(0.3) {
                s.playcount = Int.random(in: 1...50, using: &rng)
                s.lastplayed = Double(Int.random(in: 0...1_000_000, using: &rng))
            }
            if rng.chance(0.1) { s.rating = Int.random(in: 1...10, using: &rng) }
            s.favorite = rng.chance(0.05)
            if rng.chance(0.5) { s.art = "cover\(s.album ?? "")" }
            return s
        })
    }

    @Test(.enabled(if: isEnabled)) func fiftyThousandSongs() {
        let basis = Self.library(songs: 50_000)
        func time(_ label: String, runs: Int = 9, _ body: () -> Int) {
            var times: [Double] = []
            var n = 0
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                n = body()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            print(String(format: "  %-34@ median %8.3f ms  (best %8.3f, %d results)", label as NSString, times[times.count / 2], times[0], n))
        }
        print("catalog benchmark: \(basis.songs.count) songs")
        let cold = DispatchTime.now().uptimeNanoseconds
        var catalog = Catalog(basis)
        print(String(format: "  %-34@ %8.3f ms (the basis's album index built too)", "build, first on this basis" as NSString,
                     Double(DispatchTime.now().uptimeNanoseconds - cold) / 1e6))
        time("build, album index already built", runs: 5) { catalog = Catalog(basis); return catalog.albums.count }
        print("  \(catalog.albums.count) albums, \(catalog.artists.count) artists, \(catalog.genres.count) genres")
        let types: [(String, AlbumListType)] = [
            ("random", .random(seed: 1)), ("newest", .newest), ("frequent", .frequent), ("recent", .recent),
            ("starred", .starred), ("alphabeticalByName", .alphabeticalByName), ("alphabeticalByArtist", .alphabeticalByArtist),
            ("byYear 1950-1970", .byYear(from: 1950, to: 1970)), ("byYear 1970-1950", .byYear(from: 1970, to: 1950)),
            ("byGenre jazz", .byGenre("jazz")), ("highest", .highest),
        ]
        for (name, type) in types {
            time("getAlbumList2 \(name) 50 @100") { catalog.albumList(type, size: 50, offset: 100).count }
        }
        time("getAlbumList2 alphabetical 500 @4000") { catalog.albumList(.alphabeticalByName, size: 500, offset: 4_000).count }
        let some = catalog.albums[catalog.albums.count / 2]
        time("getAlbum (decode id, songs)") { catalog.album(id: some.id).map { catalog.songs(of: $0).count } ?? -1 }
        let artist = catalog.artists[catalog.artists.count / 2]
        time("getArtist (decode id, albums)") { catalog.artist(id: artist.id).map { catalog.albums(of: $0).count } ?? -1 }
        time("getSong (decode id)") { catalog.song(id: CatalogID.song(catalog.songs[25_000].id)) == nil ? 0 : 1 }
        time("getIndexes / getArtists") { catalog.indexes().count }
        time("getGenres") { catalog.genres.count }
        time("getRandomSongs 50") { catalog.randomSongs(size: 50, seed: 3).count }
        time("getRandomSongs 50 jazz 1990-1999") { catalog.randomSongs(size: 50, genre: "Jazz", fromYear: 1990, toYear: 1999, seed: 3).count }
        time("getSongsByGenre 50 @1000") { catalog.songs(genre: "rock", count: 50, offset: 1_000).count }
        time("getTopSongs Miles Davis") { catalog.topSongs(artist: "Miles Davis").count }
        time("search3 \"\" 500 songs @20000") { catalog.search("\"\"", songCount: 500, songOffset: 20_000).songs.count }
        let first = DispatchTime.now().uptimeNanoseconds
        let n = catalog.search("miles").songs.count
        print(String(format: "  %-34@ %8.3f ms (%d; the search index built)", "search3 'miles', first" as NSString,
                     Double(DispatchTime.now().uptimeNanoseconds - first) / 1e6, n))
        for text in ["miles", "kind of blue", "love", "bjork", "zzzq", "a"] {
            time("search3 '\(text)'") {
                let r = catalog.search(text)
                return r.artists.count + r.albums.count + r.songs.count
            }
        }
    }

    /// The catalog of the basis after one star, one play, one album star and one title edit, as
    /// the server makes it (with the search index ready): grouped afresh, and followed from the
    /// catalog before (`Catalog.updated(to:by:)`).
    @Test(.enabled(if: isEnabled)) func oneChangeAtFiftyThousandSongs() throws {
        let basis = Self.library(songs: 50_000)
        let catalog = Catalog(basis)
        _ = catalog.search("a")
        let song = catalog.songs[25_000]
        var played = song
        played.playcount += 1
        played.lastplayed = 2_000_000_000
        var retitled = song
        retitled.title = "A New Title"
        let changes: [(String, [Assertion])] = [
            ("star a song", AnnotationGeneration.star(songs: [song.id], !song.favorite, on: basis)),
            ("play a song", [.updateSong(song.id, song.patch(to: played))]),
            ("star an album", AnnotationGeneration.star([try #require(catalog.album(of: song)?.annotationKey)], at: 1, on: basis)),
            ("retitle a song", [.updateSong(song.id, song.patch(to: retitled))]),
        ]
        print("catalog after one change: \(basis.songs.count) songs")
        for (label, assertions) in changes {
            let next = basis.applying(assertions)
            var change = CatalogChange()
            change.add(assertions)
            func time(_ body: () -> Catalog) -> Double {
                var times: [Double] = []
                for _ in 0..<5 {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let c = body()
                    _ = c.search("a", artistCount: 0, albumCount: 0, songCount: 0)
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                return times.sorted()[2]
            }
            let afresh = time { Catalog(next) }
            let followed = time { catalog.updated(to: next, by: change) }
            print(String(format: "  %-16@ afresh %9.3f ms, followed %8.3f ms (median of 5, search index ready)",
                         label as NSString, afresh, followed))
        }
    }
}
