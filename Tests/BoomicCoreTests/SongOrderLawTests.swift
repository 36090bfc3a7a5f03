import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// `SongOrder.sorted` ranks each column once (texts folded once per distinct value); it must give
/// exactly the order of the plain comparison it stands for, key by key, then the browsing order,
/// then id, on random songs whose texts differ only in case, accents or composition.
@Suite("Song order")
struct SongOrderLawTests {
    static let texts = ["Abba", "abba", "ÀBBA", "Björk", "Bjo\u{308}rk", "björk", "Cream", "", "the Beatles", "Zz"]
    static let keys: [SongField] = [.title, .artists, .album, .year, .track, .genre, .rating]

    static func song(_ n: Int, _ rng: inout SplitMix64) -> Song {
        func text() -> String? { Int.random(in: 0..<6, using: &rng) == 0 ? nil : rng.pick(texts) }
        func number(_ r: ClosedRange<Int>) -> Int? { Int.random(in: 0..<4, using: &rng) == 0 ? nil : Int.random(in: r, using: &rng) }
        var s = Song(id: songID(n), path: "/m/\(rng.pick(texts))/\(Int.random(in: 0..<5, using: &rng)).flac")
        s.title = text()
        s.artists = text().map { [$0] } ?? []
        s.albumartist = text()
        s.albumartistSort = Int.random(in: 0..<3, using: &rng) == 0 ? text() : nil
        s.album = text()
        s.albumSort = Int.random(in: 0..<4, using: &rng) == 0 ? text() : nil
        s.disc = number(1...2)
        s.track = number(1...3)
        s.year = number(1990...1992)
        s.genre = text()
        return s
    }

    /// The order as a comparison of two songs at a time.
    static func reference(_ order: SongOrder, _ songs: [Song]) -> [Song] {
        typealias V = SongOrder.SortValue
        return songs.sorted { a, b in
            for k in order.keys {
                let x = V(k.value(in: a)), y = V(k.value(in: b))
                if x != y { return k.ascending ? x < y : x > y }
            }
            let browse: [(Song) -> V] = [
                { .text(Fold.key($0.albumArtistSortName ?? "")) }, { .text(Fold.key($0.albumSort ?? $0.album ?? "")) },
                { .number(Double($0.disc ?? 0)) }, { .number(Double($0.track ?? 0)) }, { .text($0.path) },
            ]
            for f in browse where f(a) != f(b) { return f(a) < f(b) }
            return a.id < b.id
        }
    }

    /// A listing makes each song of a few fields (`SongOrder.fieldsRead` and what it prints):
    /// songs made of the order's fields alone sort as the whole songs do.
    @Test("songs made of the order's fields sort as whole songs", arguments: Seeds.list(20, from: 0xF1E7))
    func theOrdersFieldsAreEnoughToSort(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let songs = (0..<Int.random(in: 0...300, using: &rng)).map { n in
            var s = Self.song(n, &rng)
            // What `albumArtistSortName` falls back on: the compilation flag and the artist's sort name.
            s.compilation = Int.random(in: 0..<5, using: &rng) == 0
            s.artistSort = Int.random(in: 0..<3, using: &rng) == 0 ? rng.pick(Self.texts) : nil
            s.artistCredit = Int.random(in: 0..<3, using: &rng) == 0 ? rng.pick(Self.texts) : nil
            s.composer = rng.pick(Self.texts)
            return s
        }
        let keys = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
            SortKey(field: rng.pick(Self.keys + [.albumartist, .composer]), ascending: Bool.random(using: &rng))
        }
        let order = SongOrder(keys)
        // Songs as a library holds them (`set` normalises: no empty text), then of a few fields.
        func made(_ s: Song, of fields: [SongField]) -> Song {
            var p = Song(id: s.id, path: s.path)
            for f in fields { f.set(f.value(in: s), in: &p) }
            return p
        }
        let whole = songs.map { made($0, of: SongField.allCases) }
        let got = order.sorted(whole.map { made($0, of: order.fieldsRead) }).map(\.id), want = order.sorted(whole).map(\.id)
        #expect(got == want, "\(Seeds.replay(seed)): keys \(keys); first difference at \(got.indices.first { got[$0] != want[$0] } ?? -1)")
    }

    @Test("the ranked sort is the plain comparison's", arguments: Seeds.list(20, from: 0x50_27))
    func rankedSortIsTheComparison(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let songs = (0..<Int.random(in: 0...300, using: &rng)).map { Self.song($0, &rng) }
        let keys = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
            SortKey(field: rng.pick(Self.keys), ascending: Bool.random(using: &rng))
        }
        let order = SongOrder(keys)
        let got = order.sorted(songs.shuffled(using: &rng)).map(\.id)
        let want = Self.reference(order, songs).map(\.id)
        #expect(got == want, "\(Seeds.replay(seed)): keys \(keys); first difference at \(got.indices.first { got[$0] != want[$0] } ?? -1)")
    }
}
