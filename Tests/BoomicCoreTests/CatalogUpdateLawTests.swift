import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The law of `Catalog.updated(to:by:)`: a catalog followed through the transactions between
/// two bases equals the catalog built from scratch on the later one (ids, albums, artists,
/// genres, every list's order, search), on random histories.
@Suite struct CatalogUpdateLawTests {
    /// Every transaction of each random history (imports, edits, plays, stars, undo, rollback),
    /// followed one at a time from the empty library, and spans of several at once from an
    /// earlier catalog.
    @Test func followingAHistoryEqualsBuildingAfresh() {
        var steps = 0, spans = 0
        // Every third history: the laws of the transactions themselves run on all of them.
        for history in Histories.all.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            let seed = history.seed
            var rng = SplitMix64(seed: seed ^ 0xCA7A)
            var running = Catalog(history.bases[0])
            for seq in 1...max(1, history.seq) where seq <= history.seq {
                // Half the time the index is built before the update, so a kept index is checked.
                if rng.chance(0.5) { _ = running.search("a") }
                running = running.updated(to: history.bases[seq], by: CatalogChange([history.transactions[seq - 1]]))
                Self.expectSame(running, Catalog(history.bases[seq]), "\(Seeds.replay(seed)) at \(seq)")
                steps += 1
            }
            for _ in 0..<2 where history.seq >= 2 {
                let from = Int.random(in: 0..<history.seq, using: &rng)
                let to = Int.random(in: from + 1...history.seq, using: &rng)
                let start = Catalog(history.bases[from])
                if rng.chance(0.5) { _ = start.search("a") }
                let updated = start.updated(to: history.bases[to], by: CatalogChange(history.transactions[from..<to]))
                Self.expectSame(updated, Catalog(history.bases[to]), "\(Seeds.replay(seed)) from \(from) to \(to)")
                spans += 1
            }
        }
        #expect(steps >= Seeds.atLeast(300) && spans >= Seeds.atLeast(100), "\(steps) steps, \(spans) spans")
    }

    /// What a server meets most: stars, ratings and plays of songs, stars and ratings of albums
    /// and artists, and edits that keep each song in its album (titles, tracks, years, covers,
    /// the case of a name), on the catalog laws' libraries. Most of these follow the change
    /// without building afresh, and every one equals building afresh.
    @Test func annotationsAndEditsInPlaceEqualBuildingAfresh() {
        var inPlace = 0, total = 0
        for seed in Seeds.list(80, from: 0xCA7A_0000) {
            var rng = SplitMix64(seed: seed)
            var basis = CatalogLawTests.randomLibrary(&rng)
            var catalog = Catalog(basis)
            for step in 0..<10 {
                let assertions = Self.randomChange(on: basis, &rng)
                guard !assertions.isEmpty else { continue }
                let next = basis.applying(assertions)
                var change = CatalogChange()
                change.add(assertions)
                if rng.chance(0.5) { _ = catalog.search(rng.pick(["mi", "blue", "bj", "kind of", "love"])) }
                if catalog.following(next, change) != nil { inPlace += 1 }
                catalog = catalog.updated(to: next, by: change)
                Self.expectSame(catalog, Catalog(next), "\(Seeds.replay(seed)) step \(step)")
                basis = next
                total += 1
            }
        }
        #expect(total >= Seeds.atLeast(500), "\(total) changes")
        #expect(inPlace * 2 >= total, "only \(inPlace) of \(total) changes were followed in place")
    }

    /// One random change of one to four songs, or of their albums' and artists' stars and ratings.
    static func randomChange(on basis: DataBasis, _ rng: inout SplitMix64) -> [Assertion] {
        let ids = basis.songs.keys.sorted()
        guard !ids.isEmpty else { return [] }
        let chosen = rng.subset(of: ids, max: rng.chance(0.8) ? 1 : 4)
        let songs = chosen.compactMap { basis[$0] }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return AnnotationGeneration.star(songs: chosen, rng.chance(0.7), on: basis)
        case 1: return (try? AnnotationGeneration.rate(songs: chosen, Int.random(in: 0...5, using: &rng), on: basis)) ?? []
        case 2:
            let keys = songs.compactMap(AnnotationKey.album(of:))
                + songs.map { AnnotationKey.artist(musicBrainzID: nil, name: Fold.key($0.effectiveAlbumArtist ?? "")) }
            return rng.chance(0.5) ? AnnotationGeneration.star(keys, at: rng.chance(0.8) ? 1_900_000_000 : nil, on: basis)
                : (try? AnnotationGeneration.rate(keys, Int.random(in: 0...5, using: &rng), on: basis)) ?? []
        default:
            return songs.compactMap { old in
                var s = old
                switch Int.random(in: 0..<9, using: &rng) {
                case 0:
                    s.playcount += 1
                    s.lastplayed = Double(Int.random(in: 10...40, using: &rng))
                case 1: s.title = rng.pick(Samples.titles + ["Love", "love song"])
                case 2: s.track = rng.chance(0.8) ? Int.random(in: 1...5, using: &rng) : nil
                case 3: s.year = rng.chance(0.8) ? Int.random(in: 1985...1999, using: &rng) : nil
                case 4: s.art = rng.chance(0.5) ? rng.pick(["aa", "bb", "cc"]) : nil
                case 5: s.album = s.album.map { rng.chance(0.5) ? $0.uppercased() : $0.lowercased() }
                case 6: s.genre = rng.chance(0.8) ? rng.pick(Samples.genres) : nil
                case 7: s.missing.toggle()
                default: s.album = rng.chance(0.8) ? rng.pick(CatalogLawTests.albumPool) : nil
                }
                return s == old ? nil : .updateSong(s.id, old.patch(to: s))
            }
        }
    }

    /// Every part of two catalogs, and their search answers.
    static func expectSame(_ a: Catalog, _ b: Catalog, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        func check(_ same: Bool, _ what: @autoclosure () -> String) {
            #expect(same, "\(context): \(what())", sourceLocation: sourceLocation)
        }
        func first<T: Equatable>(_ x: [T], _ y: [T]) -> String {
            zip(x, y).first { $0 != $1 }.map { "\($0)\n≠ \($1)" } ?? "\(x.count) ≠ \(y.count)"
        }
        check(a.basis == b.basis, "basis")
        check(a.songs == b.songs, "songs")
        check(a.albums == b.albums, "albums \(first(a.albums, b.albums))")
        check(a.artists == b.artists, "artists \(first(a.artists, b.artists))")
        check(a.genres == b.genres, "genres \(first(a.genres, b.genres))")
        check(a.genreSongs == b.genreSongs && a.genreAlbums == b.genreAlbums, "genre positions")
        check(a.albumPositions == b.albumPositions && a.artistPositions == b.artistPositions, "positions")
        check(a.albumByHash == b.albumByHash && a.artistByHash == b.artistByHash, "ids")
        check(a.orders == b.orders, "orders \(a.orders) ≠ \(b.orders)")
        var words = ["a", "mi", "blue", "bjork", "kind of", "the", "love", "so"]
        for s in b.songs.prefix(6) { words += SearchPass.name(of: s).split(separator: " ").prefix(1).map(String.init) }
        for w in words {
            let x = a.search(w, artistCount: 50, albumCount: 50, songCount: 50), y = b.search(w, artistCount: 50, albumCount: 50, songCount: 50)
            check(x == y, "search \(w): \(x.songs.map(\.id)) ≠ \(y.songs.map(\.id))")
        }
    }
}
